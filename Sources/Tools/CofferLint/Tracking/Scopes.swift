import SwiftSyntax

/// The scopes variables live in: functions, initializers, accessors, closures, and the file itself.
enum Scopes {
    /// Whether `node` opens a scope of its own.
    static func opensScope(_ node: Syntax) -> Bool {
        node.is(FunctionDeclSyntax.self) || node.is(InitializerDeclSyntax.self) || node.is(DeinitializerDeclSyntax.self)
            || node.is(AccessorDeclSyntax.self) || node.is(AccessorBlockSyntax.self) || node.is(ClosureExprSyntax.self)
    }

    /// The scopes `node` is in, innermost first, ending with the file.
    static func chain(of node: some SyntaxProtocol) -> [SyntaxIdentifier] {
        var chain: [SyntaxIdentifier] = []
        var current = Syntax(node).parent
        while let candidate = current {
            if opensScope(candidate) { chain.append(candidate.id) }
            current = candidate.parent
        }
        chain.append(Syntax(node).root.id)
        return chain
    }

    /// Whether `node` is declared in a type or at the top of the file rather than inside a function.
    static func isMemberOrGlobal(_ node: some SyntaxProtocol) -> Bool {
        var current = Syntax(node).parent
        while let candidate = current {
            if opensScope(candidate) { return false }
            current = candidate.parent
        }
        return true
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
