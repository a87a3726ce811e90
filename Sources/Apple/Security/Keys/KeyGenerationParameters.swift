import Foundation
import KeyCrypto
import KeychainModel
import KeychainOperations
import Query

/// What ``SecKeyCreateRandomKey(_:_:)`` reads from its parameters, as Apple's `SecKeyCreateRandomKey` reads
/// them: the type and size at the top level, and for each half the attributes of its sub-dictionary
/// (`kSecPrivateKeyAttrs`, `kSecPublicKeyAttrs`) with the top-level entries it does not set merged in.
struct KeyGenerationParameters {
    /// `kSecAttrKeyType` as given (Apple compares it with its constants, which are strings).
    let keyType: KeychainValue?
    /// `kSecAttrKeySizeInBits`: a number, or a string read as one; -1 when missing.
    let sizeInBits: Int
    /// `kSecAttrTokenID`.
    let tokenID: String?
    /// The private key's attributes.
    let privateAttributes: QueryDictionary
    /// The public key's attributes.
    let publicAttributes: QueryDictionary

    init(_ parameters: QueryDictionary) {
        keyType = parameters[Self.keyTypeKey]
        sizeInBits = Self.integer(parameters[Self.keySizeKey])
        tokenID = parameters[QueryKey.tokenID]?.stringValue
        privateAttributes = Self.merged(parameters, half: Self.privateKeyAttributes)
        publicAttributes = Self.merged(parameters, half: Self.publicKeyAttributes)
    }

    /// `kSecAttrKeyType`.
    static let keyTypeKey = "type"
    /// `kSecAttrKeySizeInBits`.
    static let keySizeKey = "bsiz"
    /// `kSecAttrIsPermanent`.
    static let isPermanentKey = "perm"
    /// `kSecPrivateKeyAttrs`.
    static let privateKeyAttributes = "private"
    /// `kSecPublicKeyAttrs`.
    static let publicKeyAttributes = "public"

    /// The key type Coffer generates for the given value; nil for any other (X25519, a number…).
    var generatedType: KeyType? {
        switch keyType {
        case .string("73"): .ellipticCurve
        case .string("42"): .rsa
        case .string("105"): .ed25519
        default: nil
        }
    }

    /// Whether `attributes` ask for the key to be stored: a true `kSecAttrIsPermanent` (only a boolean counts).
    static func isPermanent(_ attributes: QueryDictionary, default fallback: Bool) -> Bool {
        guard case .bool(let flag)? = attributes[Self.isPermanentKey] else { return fallback }
        return flag
    }

    /// Apple's `getIntValue`: a number, a string's leading integer, or -1.
    private static func integer(_ value: KeychainValue?) -> Int {
        switch value {
        case .number(let number): Int(clamping: number)
        case .double(let number): Int(number)
        case .string(let text): Int(text.prefix { $0.isNumber || $0 == "-" }) ?? 0
        case nil: -1
        default: -1
        }
    }

    /// Apple's `merge_params`: the half's own dictionary, then every top-level entry it lacks, without the
    /// entries that only the top level means.
    private static func merged(_ parameters: QueryDictionary, half: String) -> QueryDictionary {
        var result = QueryDictionary()
        if case .dictionary(let own)? = parameters[half] {
            for (key, value) in own { result[key] = value }
        }
        for (key, value) in parameters.entries where result.entries[key] == nil {
            result.entries[key] = value
        }
        for key in [publicKeyAttributes, privateKeyAttributes, Self.keyTypeKey, Self.keySizeKey] {
            result[key] = nil
        }
        return result
    }
}
