import SwiftSyntax

/// Walks a file in source order, following each query dictionary from where it is built (a literal bound to a
/// `let` or `var`, then subscript assignments and `merge`) to the SecItem calls that use it, within each function.
final class DictionaryScanner: SyntaxVisitor {
    /// The calls found, in source order.
    private(set) var calls: [KeychainCall] = []
    /// Dictionaries by variable name, per enclosing function (or the file).
    private var scopes: [SyntaxIdentifier: [String: TrackedDictionary]] = [:]

    init() { super.init(viewMode: .sourceAccurate) }

    override func visitPost(_ node: VariableDeclSyntax) {
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                let initial = binding.initializer?.value
            else { continue }
            if let literal = ExpressionResolver.dictionaryLiteral(initial) {
                scopes[scope(of: node), default: [:]][name] = ExpressionResolver.dictionary(literal)
            } else if let source = ExpressionResolver.variableName(initial), let copied = dictionary(named: source, at: Syntax(node)) {
                scopes[scope(of: node), default: [:]][name] = copied
            }
        }
    }

    override func visitPost(_ node: InfixOperatorExprSyntax) {
        // `query[kSecAttrService as String] = value`
        guard node.operator.is(AssignmentExprSyntax.self), let subscriptCall = node.leftOperand.as(SubscriptCallExprSyntax.self),
            let name = ExpressionResolver.variableName(subscriptCall.calledExpression),
            let keyExpression = subscriptCall.arguments.first?.expression, let key = ExpressionResolver.constant(keyExpression),
            var tracked = dictionary(named: name, at: Syntax(node))
        else { return }
        let (value, valueName) = ExpressionResolver.value(node.rightOperand)
        tracked.set(
            .init(code: key.code, constantName: key.name, value: value, valueName: valueName, position: keyExpression.positionAfterSkippingLeadingTrivia))
        store(tracked, named: name, at: Syntax(node))
    }

    override func visitPost(_ node: FunctionCallExprSyntax) {
        if let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "merge",
            let name = member.base.flatMap(ExpressionResolver.variableName), var tracked = dictionary(named: name, at: Syntax(node)),
            let argument = node.arguments.first?.expression
        {
            // `query.merge(other) { $1 }`: the other's entries are added.
            if let literal = ExpressionResolver.dictionaryLiteral(argument) {
                tracked.merge(ExpressionResolver.dictionary(literal))
            } else if let other = ExpressionResolver.variableName(argument).flatMap({ dictionary(named: $0, at: Syntax(node)) }) {
                tracked.merge(other)
            }
            store(tracked, named: name, at: Syntax(node))
            return
        }
        guard let called = node.calledExpression.as(DeclReferenceExprSyntax.self),
            let function = KeychainCall.Function(rawValue: called.baseName.text),
            let first = node.arguments.first?.expression, let query = resolve(first, at: Syntax(node))
        else { return }
        let second = function == .update ? node.arguments.dropFirst().first.flatMap { resolve($0.expression, at: Syntax(node)) } : nil
        calls.append(KeychainCall(function: function, query: query, attributesToUpdate: second, position: node.positionAfterSkippingLeadingTrivia))
    }

    /// The dictionary an argument is: a literal, or a tracked variable.
    private func resolve(_ expression: ExprSyntax, at node: Syntax) -> TrackedDictionary? {
        if let literal = ExpressionResolver.dictionaryLiteral(expression) { return ExpressionResolver.dictionary(literal) }
        return ExpressionResolver.variableName(expression).flatMap { dictionary(named: $0, at: node) }
    }

    private func dictionary(named name: String, at node: Syntax) -> TrackedDictionary? { scopes[scope(of: node)]?[name] }

    private func store(_ dictionary: TrackedDictionary, named name: String, at node: Syntax) {
        scopes[scope(of: node), default: [:]][name] = dictionary
    }

    /// The function, initializer, accessor or closure `node` is in; the file for top-level code.
    private func scope(of node: some SyntaxProtocol) -> SyntaxIdentifier {
        var current = Syntax(node).parent
        while let candidate = current {
            if candidate.is(FunctionDeclSyntax.self) || candidate.is(InitializerDeclSyntax.self) || candidate.is(AccessorDeclSyntax.self)
                || candidate.is(ClosureExprSyntax.self)
            {
                return candidate.id
            }
            current = candidate.parent
        }
        return Syntax(node).root.id
    }
}
