import Foundation

/// What a Secret Service item keeps beside its secret and label, serialized into the Coffer item's
/// `kSecAttrGeneric` (`gena`), which the store encrypts with the item's other attributes: no attribute name
/// or value is ever in plaintext at rest.
///
/// Version 1 (the first provider) had no owner and no postings (``AttributeIndex``); version 2 has both. A
/// version-1 item is brought to version 2 when the provider first reads the unlocked collection.
struct ItemMetadata: Codable, Sendable, Equatable {
    /// The format this provider writes.
    static let currentVersion = 2

    /// The format's version.
    var version: Int = currentVersion
    /// The Secret Service attributes.
    var attributes: [String: String]
    /// The secret's content type.
    var contentType: String
    /// The access group of the program that created the item; nil for a version-1 item (visible to every client).
    var owner: String?
    /// When the item was created, in seconds since 1970, when that is not when Coffer stored it: the date another
    /// provider gave an item copied from it (`coffer-secret-service --import`); nil otherwise (absent from `gena`).
    var created: UInt64? = nil

    /// The bytes stored in `gena`.
    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding a struct of strings cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The metadata stored in `data`, or nil when it is not this format.
    static func decoded(from data: Data) -> ItemMetadata? {
        guard let metadata = try? JSONDecoder().decode(ItemMetadata.self, from: data),
            (1...currentVersion).contains(metadata.version)
        else { return nil }
        return metadata
    }
}
