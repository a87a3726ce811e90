import Foundation

/// A parameter of ``SecKeyCopyKeyExchangeResult(_:_:_:_:_:)``: its `rawValue` is the dictionary key.
public struct SecKeyKeyExchangeParameter: RawRepresentable, Hashable, Sendable {
    /// The dictionary key, as a `CFString`.
    public var rawValue: CFString { NSString(string: name) }
    let name: String

    /// The parameter named `rawValue`.
    public init(rawValue: CFString) {
        name = String(rawValue)
    }

    /// The number of bytes a key exchange with an X9.63 KDF derives (a `CFNumber`).
    public static let requestedSize = SecKeyKeyExchangeParameter(rawValue: "requestedSize")
    /// The shared info an X9.63 KDF mixes in (`CFData`).
    public static let sharedInfo = SecKeyKeyExchangeParameter(rawValue: "sharedInfo")
}
