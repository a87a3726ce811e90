import Foundation
import Query

/// A description of an item for logs and debuggers: its attributes by property name, its metadata,
/// and its secret only as a length.
struct ItemDescription {
    private let typeName: String
    private let fields: [(label: String, value: String)]

    init(_ item: some KeychainItem) {
        typeName = String(describing: type(of: item))
        let attributes = item.attributes
        var fields: [(String, String)] = []
        for (key, label) in Self.labels {
            if let value = attributes[key] { fields.append((label, RedactedRendering.render(value))) }
        }
        fields.append(("value", RedactedRendering.redacted(byteCount: item.value.count)))
        if let date = item.creationDate { fields.append(("creationDate", RedactedRendering.render(.date(date)))) }
        if let date = item.modificationDate { fields.append(("modificationDate", RedactedRendering.render(.date(date)))) }
        if let reference = item.persistentReference {
            fields.append(("persistentReference", RedactedRendering.render(.data(reference.data))))
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

    /// Property names by attribute key, in display order.
    private static let labels: [(String, String)] = [
        (QueryKey.service, "service"), (QueryKey.server, "server"), (QueryKey.account, "account"),
        (QueryKey.securityDomain, "securityDomain"), (QueryKey.protocol, "protocol"),
        (QueryKey.authenticationType, "authenticationType"), (QueryKey.port, "port"), (QueryKey.path, "path"),
        (QueryKey.accessGroup, "accessGroup"), (QueryKey.label, "label"), (QueryKey.comment, "comment"),
        (QueryKey.description, "kind"), (QueryKey.generic, "generic"), (QueryKey.creator, "creator"),
        (QueryKey.type, "type"), (QueryKey.isInvisible, "isInvisible"), (QueryKey.isNegative, "isNegative"),
        (QueryKey.synchronizable, "synchronizable"), (QueryKey.accessible, "accessibility"),
        (QueryKey.accessControl, "accessControl"),
    ]
}
