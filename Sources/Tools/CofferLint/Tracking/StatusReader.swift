import SwiftSyntax

/// What the code around a call does with the OSStatus it returns.
enum StatusReader {
    static func use(of call: FunctionCallExprSyntax) -> KeychainCall.StatusUse {
        var node = Syntax(call)
        // Look through parentheses and `try`, which change nothing about the result.
        while let parent = node.parent,
            parent.is(TupleExprSyntax.self) || parent.is(LabeledExprListSyntax.self) && parent.parent?.is(TupleExprSyntax.self) == true
                || parent.is(LabeledExprSyntax.self) && parent.parent?.parent?.is(TupleExprSyntax.self) == true || parent.is(TryExprSyntax.self)
        {
            node = parent
        }
        guard let parent = node.parent else { return .used }
        if parent.is(CodeBlockItemSyntax.self) {
            // The only statement of a closure or function body is its result (an implicit return).
            if let list = parent.parent?.as(CodeBlockItemListSyntax.self), list.count == 1,
                list.parent?.is(ClosureExprSyntax.self) == true || list.parent?.is(AccessorBlockSyntax.self) == true
                    || list.parent?.as(CodeBlockSyntax.self)?.parent?.as(FunctionDeclSyntax.self)?.signature.returnClause != nil
            {
                return .used
            }
            return .ignored
        }
        if let assignment = parent.as(InfixOperatorExprSyntax.self), assignment.operator.is(AssignmentExprSyntax.self),
            assignment.rightOperand.id == node.id
        {
            if assignment.leftOperand.is(DiscardAssignmentExprSyntax.self) { return .ignored }
            if let name = ConstantReader.variableName(assignment.leftOperand) { return .bound(name) }
        }
        if let initializer = parent.as(InitializerClauseSyntax.self), let binding = initializer.parent?.as(PatternBindingSyntax.self) {
            if binding.pattern.is(WildcardPatternSyntax.self) { return .ignored }
            if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { return .bound(name) }
        }
        return .used
    }
}
