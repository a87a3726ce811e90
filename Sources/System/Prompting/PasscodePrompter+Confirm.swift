import KeychainModel

extension PasscodePrompter {
    /// Asks the person to allow something (a use of a key), blocking the calling thread; returns when they allow
    /// it and throws ``PromptFailure/cancelled`` when they refuse.
    ///
    /// Through pinentry it is a `CONFIRM` dialog with the question's title and description (its prompt is not
    /// shown). On the terminal the description is written and the person types `yes` to allow (echo off, as every
    /// answer on the terminal); anything else refuses.
    public func confirm(_ question: PasscodeQuestion) throws(PromptFailure) {
        switch method {
        case .pinentry(let program):
            try PinentryConversation(program: program).confirm(question)
        case .terminal:
            let answer = try askOnTerminal(
                PasscodeQuestion(
                    title: question.title, description: question.description, prompt: "Type yes to allow:", timeout: question.timeout))
            guard answer.isEqual(to: SecretBytes(copying: Array("yes".utf8))) else { throw .cancelled }
        }
    }
}
