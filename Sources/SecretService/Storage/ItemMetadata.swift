import Foundation

/// What a Secret Service item keeps beside its secret and label, serialized into the Coffer item's
/// `kSecAttrGeneric` (`gena`), which the store encrypts with the item's other attributes: no attribute name
/// or value is ever in plaintext at rest.
struct ItemMetadata: Codable, Sendable, Equatable {
    /// The format's version.
    var version: Int = 1
    /// The Secret Service attributes.
    var attributes: [String: String]
    /// The secret's content type.
    var contentType: String

    /// The bytes stored in `gena`.
    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding a struct of strings cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The metadata stored in `data`, or nil when it is not this format.
    static func decoded(from data: Data) -> ItemMetadata? {
        guard let metadata = try? JSONDecoder().decode(ItemMetadata.self, from: data), metadata.version == 1 else { return nil }
        return metadata
    }
}
