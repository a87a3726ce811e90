import Foundation

/// The attributes Apple derives from a software key (`SecKeyCopyAttributes`, and what `SecItemAdd` stores for
/// a key added by reference): class, type, sizes, application label and every usage flag, with Apple's
/// values (SecKey.m, SecECKey.m, SecRSAKey.c).
///
/// ``codes`` lists them under their four-letter attribute codes, for a `[code: value]` dictionary.
public struct DerivedKeyAttributes: Sendable, Equatable {
    /// An attribute value as the keychain stores it: a number (booleans are 0 and 1) or bytes.
    public enum Value: Sendable, Hashable {
        /// A number.
        case number(Int64)
        /// Bytes.
        case data(Data)
    }

    /// `kcls`.
    public var keyClass: KeyClass
    /// `type`.
    public var keyType: KeyType
    /// `bsiz`: the key size in bits.
    public var sizeInBits: Int
    /// `esiz`: the effective key size in bits (the key size).
    public var effectiveKeySize: Int
    /// `klbl`: the SHA-1 of the public key bytes.
    public var applicationLabel: Data
    /// `perm`: true.
    public var isPermanent: Bool
    /// `priv`: true, for public keys too.
    public var isPrivate: Bool
    /// `modi`: true.
    public var isModifiable: Bool
    /// `sens`: false for a software key.
    public var isSensitive: Bool
    /// `asen`: false for a software key.
    public var wasAlwaysSensitive: Bool
    /// `extr`: true for a software key.
    public var isExtractable: Bool
    /// `next`: false for a software key.
    public var wasNeverExtractable: Bool
    /// `encr`: public keys.
    public var canEncrypt: Bool
    /// `decr`: private keys, and RSA public keys (raw RSA "decrypts" with the public exponent).
    public var canDecrypt: Bool
    /// `drve`: EC private keys only.
    public var canDerive: Bool
    /// `sign`: private keys.
    public var canSign: Bool
    /// `vrfy`: public keys.
    public var canVerify: Bool
    /// `snrc`: false.
    public var canSignRecover: Bool
    /// `vyrc`: false.
    public var canVerifyRecover: Bool
    /// `wrap`: public keys.
    public var canWrap: Bool
    /// `unwp`: private keys.
    public var canUnwrap: Bool

    /// Every attribute under its code, in a fixed order: kcls, type, bsiz, esiz, klbl, perm, priv, modi,
    /// sens, asen, extr, next, encr, decr, drve, sign, vrfy, snrc, vyrc, wrap, unwp.
    public var codes: [(code: String, value: Value)] {
        func flag(_ value: Bool) -> Value { .number(value ? 1 : 0) }
        return [
            ("kcls", .number(Int64(keyClass.rawValue))),
            ("type", .number(Int64(keyType.rawValue))),
            ("bsiz", .number(Int64(sizeInBits))),
            ("esiz", .number(Int64(effectiveKeySize))),
            ("klbl", .data(applicationLabel)),
            ("perm", flag(isPermanent)),
            ("priv", flag(isPrivate)),
            ("modi", flag(isModifiable)),
            ("sens", flag(isSensitive)),
            ("asen", flag(wasAlwaysSensitive)),
            ("extr", flag(isExtractable)),
            ("next", flag(wasNeverExtractable)),
            ("encr", flag(canEncrypt)),
            ("decr", flag(canDecrypt)),
            ("drve", flag(canDerive)),
            ("sign", flag(canSign)),
            ("vrfy", flag(canVerify)),
            ("snrc", flag(canSignRecover)),
            ("vyrc", flag(canVerifyRecover)),
            ("wrap", flag(canWrap)),
            ("unwp", flag(canUnwrap)),
        ]
    }
}

extension DerivedKeyAttributes {
    /// The attributes under their codes, each number and each byte string turned into `Value` by the
    /// caller's rule (a module that knows how a keychain writes them).
    public func dictionary<Value>(number: (String, Int64) -> Value, data: (Data) -> Value) -> [String: Value] {
        var dictionary: [String: Value] = [:]
        for (code, value) in codes {
            switch value {
            case .number(let figure): dictionary[code] = number(code, figure)
            case .data(let bytes): dictionary[code] = data(bytes)
            }
        }
        return dictionary
    }
}
