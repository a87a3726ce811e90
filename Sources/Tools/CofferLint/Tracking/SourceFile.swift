import SwiftSyntax

/// One parsed file, and the places in it as people name them.
struct SourceFile {
    let path: String
    let tree: SourceFileSyntax
    let text: String
    private let converter: SourceLocationConverter

    init(path: String, tree: SourceFileSyntax, text: String) {
        self.path = path
        self.tree = tree
        self.text = text
        self.converter = SourceLocationConverter(fileName: path, tree: tree)
    }

    /// Where `node` starts, past its leading trivia.
    func point(_ node: some SyntaxProtocol) -> SourcePoint { point(node.positionAfterSkippingLeadingTrivia) }

    func point(_ position: AbsolutePosition) -> SourcePoint {
        let location = converter.location(for: position)
        return SourcePoint(path: path, line: location.line, column: location.column)
    }

    /// The text of `node`, without its trivia.
    func span(_ node: some SyntaxProtocol) -> SourceSpan {
        SourceSpan(start: point(node.positionAfterSkippingLeadingTrivia), end: point(node.endPositionBeforeTrailingTrivia))
    }

    /// The edit that removes `element` from its dictionary literal, comma included, leaving the others as written.
    func removal(of element: DictionaryElementSyntax, in elements: DictionaryElementListSyntax) -> TextEdit {
        let all = Array(elements)
        guard let index = all.firstIndex(where: { $0.id == element.id }) else {
            return TextEdit(span: span(element), replacement: "")
        }
        if all.count == 1 { return TextEdit(span: span(element), replacement: ":") }
        if index + 1 < all.count {
            return TextEdit(
                span: SourceSpan(start: point(element.positionAfterSkippingLeadingTrivia), end: point(all[index + 1].positionAfterSkippingLeadingTrivia)),
                replacement: "")
        }
        // The last element: the comma before it goes, and its own trailing comma if it has one.
        let previous = all[index - 1]
        let start = previous.trailingComma.map { $0.positionAfterSkippingLeadingTrivia } ?? previous.endPositionBeforeTrailingTrivia
        return TextEdit(span: SourceSpan(start: point(start), end: point(element.endPositionBeforeTrailingTrivia)), replacement: "")
    }
}
