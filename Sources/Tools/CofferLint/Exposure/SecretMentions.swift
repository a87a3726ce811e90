import SwiftSyntax

/// Whether an expression hands a secret's value on: it reads a variable whose name says it is a secret, or one that
/// holds what a keychain search returned. Reading only its size or whether it is there (`token.count`,
/// `password.isEmpty`, `secret == nil`) is not handing it on.
struct SecretMentions {
    /// Whether a name that says it is a secret counts (`authToken`), beside what a search returned.
    let bySecretName: Bool
    /// Variables that hold what a keychain search returned, visible here.
    let isKeychainValue: (String) -> Bool

    /// The first secret the expression hands on, by name.
    func secret(in expression: some SyntaxProtocol) -> String? {
        for token in expression.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind, let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { continue }
            guard bySecretName && SecretNames.isSecret(name) || isKeychainValue(name), handsOn(reference) else { continue }
            return name
        }
        return nil
    }

    private func handsOn(_ reference: DeclReferenceExprSyntax) -> Bool {
        guard let parent = reference.parent else { return true }
        // `savePassword(…)` calls a function; `.password` after a base is the member itself, read on.
        if let call = parent.as(FunctionCallExprSyntax.self), call.calledExpression.id == reference.id { return false }
        if let member = parent.as(MemberAccessExprSyntax.self) {
            if member.declName.id == reference.id {
                return member.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id != member.id
            }
            return !["count", "isEmpty", "hashValue", "utf8CString"].contains(member.declName.baseName.text)
        }
        if let infix = parent.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self),
            ["==", "!="].contains(op.operator.text), infix.leftOperand.is(NilLiteralExprSyntax.self) || infix.rightOperand.is(NilLiteralExprSyntax.self)
        {
            return false
        }
        return true
    }
}
