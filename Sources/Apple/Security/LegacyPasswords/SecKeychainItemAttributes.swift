import Foundation
import KeychainModel
import Query

/// The attributes of a ``SecKeychainAttributeList`` as `SecItemUpdate` changes.
///
/// The tags are the four-character attribute codes of macOS's password schema, which are also the
/// `kSecAttr…` keys' values. Numbers (`'port'`, `'crtr'`, `'type'`, `'invi'`, `'nega'`) are four
/// native-endian bytes; `'ptcl'` is a ``SecProtocolType`` code, stored as its four characters; the others
/// are strings or bytes.
enum LegacyAttributeList {
    /// Tags whose value is a 32-bit number.
    private static let numbers: Set<String> = [QueryKey.port, QueryKey.creator, QueryKey.type, QueryKey.isInvisible, QueryKey.isNegative]
    /// Tags whose value is text or bytes.
    private static let strings: Set<String> = [
        QueryKey.label, QueryKey.description, QueryKey.comment, QueryKey.account, QueryKey.service, QueryKey.generic,
        QueryKey.server, QueryKey.securityDomain, QueryKey.path, QueryKey.authenticationType,
    ]

    /// The changes `list` asks for, or the status that refuses it: ``errSecNoSuchAttr`` for a tag outside
    /// the password schema, ``errSecParam`` for a number that is not four bytes or a missing value.
    static func changes(_ list: UnsafePointer<SecKeychainAttributeList>?) -> Result<QueryDictionary, KeychainFailure> {
        var changes = QueryDictionary()
        guard let list, list.pointee.count > 0 else { return .success(changes) }
        guard let entries = list.pointee.attr else { return .failure(KeychainFailure(.param, reason: "the attribute list has no entries")) }
        for attribute in UnsafeBufferPointer(start: entries, count: Int(list.pointee.count)) {
            let tag = attribute.tag.fourCharacterText
            let bytes = UnsafeRawBufferPointer(start: attribute.data, count: attribute.data == nil ? 0 : Int(attribute.length))
            if numbers.contains(tag) || tag == QueryKey.protocol {
                guard bytes.count == 4 else {
                    return .failure(KeychainFailure(.param, reason: "attribute '\(tag)' is a number: its value must be 4 bytes"))
                }
                let number = bytes.loadUnaligned(as: UInt32.self)
                changes[tag] = tag == QueryKey.protocol ? .string(number.fourCharacterText) : .number(Int64(number))
            } else if strings.contains(tag) {
                let text = bytes.isEmpty ? nil : String(validating: bytes, as: UTF8.self)
                changes[tag] = text.map(KeychainValue.string) ?? .data(Data(bytes))
            } else {
                return .failure(KeychainFailure(.noSuchAttribute, reason: "'\(tag)' is not an attribute of a password item"))
            }
        }
        return .success(changes)
    }
}
