import SwiftSyntax

/// The scopes variables live in: functions, initializers, accessors, closures, and the file itself. A visitor
/// follows them as it goes (``ScopedVisitor``); these answer for a node met outside a walk.
enum Scopes {
    /// Whether `node` opens a scope of its own.
    static func opensScope(_ node: Syntax) -> Bool {
        switch node.kind {
        case .functionDecl, .initializerDecl, .deinitializerDecl, .accessorDecl, .accessorBlock, .closureExpr: true
        default: false
        }
    }

    /// The name of the function or property whose body `node` is in (`baseQuery` for `func baseQuery()` or
    /// `var baseQuery: [String: Any] { … }`), and the function's declaration when it is one.
    static func enclosingHelper(of node: some SyntaxProtocol) -> (name: String, function: FunctionDeclSyntax?)? {
        var current = Syntax(node).parent
        while let candidate = current {
            if let function = candidate.as(FunctionDeclSyntax.self) { return (function.name.text, function) }
            if let binding = candidate.as(PatternBindingSyntax.self), binding.accessorBlock != nil,
                let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
            {
                return (name, nil)
            }
            if candidate.is(ClosureExprSyntax.self) || candidate.is(InitializerDeclSyntax.self) { return nil }
            current = candidate.parent
        }
        return nil
    }
}
