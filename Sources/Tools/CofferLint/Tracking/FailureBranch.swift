import SwiftSyntax

/// Whether a call runs only after some status was found not to be `errSecSuccess`: in the body of
/// `if status != errSecSuccess`, the `else` of `if status == errSecSuccess`, or the `else` of
/// `guard status == errSecSuccess`. The status is a variable or a SecItem call written in the condition.
enum FailureBranch {
    /// What failed: the variable's name, or the function's (`SecItemAdd`) when the call is in the condition; nil
    /// when the call is not in such a branch, or when the condition also looks at `errSecDuplicateItem`.
    static func failedStatus(around node: some SyntaxProtocol) -> String? {
        var child = Syntax(node)
        var current = child.parent
        while let candidate = current {
            if Scopes.opensScope(candidate) { return nil }
            if let branch = candidate.as(IfExprSyntax.self), let found = failed(branch.conditions) {
                let inBody = branch.body.id == child.id
                let inElse = branch.elseBody?.id == child.id
                if (found.unequal && inBody) || (!found.unequal && inElse) { return found.status }
            }
            if let guardStatement = candidate.as(GuardStmtSyntax.self), guardStatement.body.id == child.id,
                let found = failed(guardStatement.conditions), !found.unequal
            {
                return found.status
            }
            child = candidate
            current = candidate.parent
        }
        return nil
    }

    /// The status a condition compares with `errSecSuccess`, and whether it asks for inequality.
    private static func failed(_ conditions: ConditionElementListSyntax) -> (status: String, unequal: Bool)? {
        guard conditions.count == 1, case .expression(let expression) = conditions.first?.condition,
            let comparison = expression.as(InfixOperatorExprSyntax.self), let op = comparison.operator.as(BinaryOperatorExprSyntax.self),
            ["==", "!="].contains(op.operator.text)
        else { return nil }
        let sides = [comparison.leftOperand, comparison.rightOperand]
        guard sides.contains(where: { ConstantReader.variableName($0) == "errSecSuccess" || ConstantReader.variableName($0) == "noErr" }),
            let other = sides.first(where: { ConstantReader.variableName($0) != "errSecSuccess" && ConstantReader.variableName($0) != "noErr" })
        else { return nil }
        let status: String?
        if let call = ConstantReader.unwrapped(other).as(FunctionCallExprSyntax.self) {
            status = ConstantReader.calledName(call)
        } else {
            status = ConstantReader.variableName(other)
        }
        return status.map { ($0, op.operator.text == "!=") }
    }
}
