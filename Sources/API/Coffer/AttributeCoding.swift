import Foundation
import KeychainModel
import Query

/// How an attribute's value is written into a query dictionary and read back from a result.
struct AttributeCoding<Value: Sendable>: Sendable {
    /// The value as Apple's API takes it.
    let write: @Sendable (Value) -> KeychainValue
    /// The value under a key of a result; nil when it holds none that reads as `Value`.
    let read: @Sendable (AttributeReader, String) -> Value?
}

extension AttributeCoding {
    /// Text; data reads as UTF-8 and numbers as their digits.
    static var text: AttributeCoding<String> { .init(write: { .string($0) }, read: { $0.string($1) }) }
    /// Bytes; text reads as its UTF-8.
    static var data: AttributeCoding<Data> { .init(write: { .data($0) }, read: { $0.data($1) }) }
    /// A boolean, written as `kCFBooleanTrue`/`False`; any nonzero number reads as true.
    static var flag: AttributeCoding<Bool> { .init(write: { .bool($0) }, read: { $0.bool($1) }) }
    /// An integer, clamped to `Int`.
    static var integer: AttributeCoding<Int> {
        .init(write: { .number(Int64($0)) }, read: { $0.integer($1).map { Int(clamping: $0) } })
    }
    /// A four-character code, packed big-endian (`0x61626364` is `abcd`), written as a number.
    static var fourCharCode: AttributeCoding<UInt32> { .init(write: { .number(Int64($0)) }, read: { $0.fourCharCode($1) }) }
    /// A date.
    static var date: AttributeCoding<Date> { .init(write: { .date($0) }, read: { $0.date($1) }) }
    /// A protection class, by its `pdmn` string.
    static var protection: AttributeCoding<ProtectionClass> { .init(write: { .string($0.rawValue) }, read: { $0.protection($1) }) }
    /// An access control; one without flags reads as none.
    static var accessControl: AttributeCoding<AccessControl> {
        .init(write: { .accessControl($0) }, read: { $0.accessControl($1) })
    }
    /// An internet protocol, by its four-character code.
    static var internetProtocol: AttributeCoding<InternetProtocol> {
        .init(write: { .string($0.rawValue) }, read: { $0.internetProtocol($1) })
    }
    /// An authentication type, by its four-character code.
    static var authenticationType: AttributeCoding<AuthenticationType> {
        .init(write: { .string($0.rawValue) }, read: { $0.authenticationType($1) })
    }
    /// A persistent reference, as its bytes.
    static var persistentReference: AttributeCoding<PersistentReference> {
        .init(write: { .data($0.data) }, read: { $0.persistentReference($1) })
    }
}
