import SwiftSyntax

/// A visitor that knows which scopes (functions, initializers, accessors, closures, the file) the node it visits is
/// in, from the order it visits them rather than by walking up the tree at every node.
///
/// Subclasses react to a scope in ``enter(_:)`` and ``leave(_:)`` and leave the scope nodes' `visit` and
/// `visitPost` to this class.
class ScopedVisitor: SyntaxVisitor {
    private var open: [SyntaxIdentifier] = []
    private var file: SyntaxIdentifier?

    init() { super.init(viewMode: .sourceAccurate) }

    /// The scopes of the node being visited, innermost first, ending with the file.
    var chain: [SyntaxIdentifier] { open.reversed() + (file.map { [$0] } ?? []) }

    /// The innermost scope of the node being visited.
    var innermost: SyntaxIdentifier {
        guard let scope = open.last ?? file else { preconditionFailure("a scoped visitor walks a whole file") }
        return scope
    }

    /// Whether the node being visited is in a type or at the top of the file rather than inside a function.
    var isMemberOrGlobal: Bool { open.isEmpty }

    /// Called when a scope opens, before its children are visited.
    func enter(_ scope: Syntax) {}

    /// Called when a scope closes, after its children were visited, while it is still the innermost.
    func leave(_ scope: Syntax) {}

    override func visit(_ node: SourceFileSyntax) -> SyntaxVisitorContinueKind {
        file = node.id
        return .visitChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { opening(node) }
    override func visitPost(_ node: FunctionDeclSyntax) { closing(node) }
    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind { opening(node) }
    override func visitPost(_ node: InitializerDeclSyntax) { closing(node) }
    override func visit(_ node: DeinitializerDeclSyntax) -> SyntaxVisitorContinueKind { opening(node) }
    override func visitPost(_ node: DeinitializerDeclSyntax) { closing(node) }
    override func visit(_ node: AccessorDeclSyntax) -> SyntaxVisitorContinueKind { opening(node) }
    override func visitPost(_ node: AccessorDeclSyntax) { closing(node) }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { opening(node) }
    override func visitPost(_ node: AccessorBlockSyntax) { closing(node) }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { opening(node) }
    override func visitPost(_ node: ClosureExprSyntax) { closing(node) }

    private func opening(_ node: some SyntaxProtocol) -> SyntaxVisitorContinueKind {
        open.append(node.id)
        enter(Syntax(node))
        return .visitChildren
    }

    private func closing(_ node: some SyntaxProtocol) {
        leave(Syntax(node))
        open.removeLast()
    }
}
