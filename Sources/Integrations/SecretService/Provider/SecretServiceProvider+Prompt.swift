import Foundation

// org.freedesktop.Secret.Prompt: a pending unlock, run on its own thread when the client calls Prompt.
extension SecretServiceProvider {
    func promptCall(_ member: String, id: String, message: OpaquePointer) throws(BusReplyError) {
        let arguments = BusReader(message: message)
        switch member {
        case "Prompt":
            _ = try arguments.string()
            guard prompts.action(id) != nil else { throw .noSuchObject("no such prompt") }
            try reply(to: message) { _ throws(BusReplyError) in }
            let unlocker = self.unlocker
            let completions = self.completions
            let thread = Thread {
                completions.post(.init(id: id, done: unlocker.unlock()))
            }
            thread.name = "coffer-secret-service-prompt"
            thread.start()
        case "Dismiss":
            try reply(to: message) { _ throws(BusReplyError) in }
            completePrompt(.init(id: id, done: false))
        default:
            throw .notSupported("unknown method")
        }
    }

    /// Sends a prompt's `Completed` signal and forgets it; a prompt already completed is ignored.
    func completePrompt(_ completion: PromptCompletions.Completion) {
        guard let action = prompts.remove(completion.id) else { return }
        let unlocked: [String]
        switch action {
        case .unlock(let objects): unlocked = completion.done && !isLocked() ? objects : []
        }
        let dismissed = !completion.done
        emit(ObjectPath.prompt(completion.id).path, "org.freedesktop.Secret.Prompt", "Completed") { out throws(BusReplyError) in
            try out.bool(dismissed)
            try out.variant("ao") { value throws(BusReplyError) in try value.objectPaths(unlocked) }
        }
    }
}
