import ArgumentParser
import Foundation
import KeychainModel
import Query

/// Which keys a key command works on: by application tag, label or application label, as `SecItem` queries
/// name key items (`kSecAttrApplicationTag`, `kSecAttrLabel`, `kSecAttrApplicationLabel`).
struct KeySelection: ParsableArguments {
    @Option(name: .customLong("tag"), help: "The key's application tag (kSecAttrApplicationTag), as text.")
    var tag: String?
    @Option(name: [.customShort("l"), .customLong("label")], help: "The key's label (kSecAttrLabel).")
    var label: String?
    @Option(
        name: .customLong("application-label"),
        help: "The key's application label (kSecAttrApplicationLabel, the SHA-1 of its public key), in hex.")
    var applicationLabel: String?

    func validate() throws {
        if let applicationLabel, Self.bytes(hex: applicationLabel) == nil {
            throw ValidationError("--application-label takes hexadecimal digits, two per byte: \(applicationLabel)")
        }
    }

    /// Whether anything names the key.
    var isEmpty: Bool { tag == nil && label == nil && applicationLabel == nil }

    /// The query entries: the class, and what was named.
    var entries: [KeychainValue: KeychainValue] {
        var entries: [KeychainValue: KeychainValue] = [.string(QueryKey.itemClass): .string(ItemClass.key.rawValue)]
        if let tag { entries[.string(QueryKey.applicationTag)] = .data(Data(tag.utf8)) }
        if let label { entries[.string(QueryKey.label)] = .string(label) }
        if let applicationLabel, let bytes = Self.bytes(hex: applicationLabel) {
            entries[.string(QueryKey.applicationLabel)] = .data(bytes)
        }
        return entries
    }

    /// The same, as the dictionary Apple's `SecItem` functions take.
    var appleQuery: [String: Any] {
        var query: [String: Any] = [QueryKey.itemClass: ItemClass.key.rawValue]
        if let tag { query[QueryKey.applicationTag] = Data(tag.utf8) }
        if let label { query[QueryKey.label] = label }
        if let applicationLabel, let bytes = Self.bytes(hex: applicationLabel) { query[QueryKey.applicationLabel] = bytes }
        return query
    }

    /// Fails with a message naming the options when nothing names the key (for commands that use one key).
    func requireOne(_ command: String) throws {
        guard isEmpty else { return }
        throw CLIFailure("\(command): name the key with --tag, -l LABEL or --application-label HEX")
    }

    /// `hex` as bytes, or nil when it is not an even number of hex digits.
    static func bytes(hex: String) -> Data? { Hexadecimal.bytes(hex).map { Data($0) } }
}
