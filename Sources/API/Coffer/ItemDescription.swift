import Foundation
import Query

/// A description of an item for logs and debuggers: its attributes by property name, its secret only as
/// a length, then its metadata.
struct ItemDescription {
    private let typeName: String
    private let fields: [(label: String, value: String)]

    init<Item: KeychainItem>(_ item: Item) {
        typeName = String(describing: Item.self)
        let schema = Item.schema
        var fields: [(String, String)] = []
        for attribute in schema.attributes where !attribute.isMetadata {
            if let value = attribute.write(item) { fields.append((attribute.name, RedactedRendering.render(value))) }
        }
        if let value = schema.value.write(item) { fields.append((schema.value.name, RedactedRendering.redacted(value))) }
        for attribute in schema.attributes where attribute.isMetadata {
            if let value = attribute.write(item) { fields.append((attribute.name, RedactedRendering.render(value))) }
        }
        self.fields = fields
    }

    /// `TypeName(label: value, …)`.
    var text: String {
        "\(typeName)(" + fields.map { "\($0.label): \($0.value)" }.joined(separator: ", ") + ")"
    }

    /// A mirror with the rendered fields as children, so `dump(_:)` shows no secret bytes.
    func mirror(of subject: Any) -> Mirror {
        Mirror(
            subject, children: fields.map { (label: Optional($0.label), value: Rendered(text: $0.value) as Any) },
            displayStyle: .struct)
    }

    /// A rendered field, shown as is by `dump(_:)` and debuggers.
    private struct Rendered: CustomStringConvertible, CustomDebugStringConvertible {
        let text: String
        var description: String { text }
        var debugDescription: String { text }
    }
}
