import Crypto
import Foundation
import KeychainModel
import Query

/// The `sha1` attribute of an item (reference §5.6): SHA-1 over the DER property list (§5.7) of the item's
/// H-flag attributes that have a value, plus `v_Data` when the item has data.
///
/// What goes in, as Apple builds it (`SecDbKeychainItemCopySHA1` → `SecDbItemCopyPListWithMask(item,
/// kSecDbInHashFlag)` in keychain/securityd/SecDbKeychainItem.m and SecDbItem.c):
/// - every attribute of the class flagged H (``AttributeDescriptor/isInDigest``) with its stored value, in
///   its stored type: a blob given as a string stays a string, numbers (booleans included) are integers,
///   dates are dates; so `cdat`, `mdat`, `agrp`, `pdmn`, `sync` and `tomb` are always in, and the add-time
///   defaults (`acct = ""`, `port = 0`, …) are in as stored;
/// - an attribute without a value is left out (Apple skips `kCFNull`): `vwht`, `tkid`, `ggrp` unless set;
/// - `v_Data` (H) when the item has data, empty data included;
/// - not the class, and not `sha1`, `accc`, `musr`, `UUID`, `persistref`, `clip` or the `inet` `bin*` fields.
///
/// Because `mdat` is in, every update changes the digest, as on Apple's keychain.
enum ItemDigest {
    /// The dictionary whose DER encoding is hashed.
    static func properties(of attributes: AttributeSet, secret: Data?, in itemClass: ItemClass) -> [String: DERPropertyList] {
        var properties: [String: DERPropertyList] = [:]
        for (code, value) in attributes {
            guard let descriptor = AttributeCatalogue.descriptor(for: code, in: itemClass), descriptor.isInDigest,
                let property = property(of: value)
            else { continue }
            properties[code] = property
        }
        if let secret { properties[QueryKey.valueData] = .data(secret) }
        return properties
    }

    /// The 20-byte digest.
    static func sha1(of attributes: AttributeSet, secret: Data?, in itemClass: ItemClass) -> Data {
        var encoded = DERPropertyList.dictionary(properties(of: attributes, secret: secret, in: itemClass)).encoded
        defer { encoded.zeroize() }
        return Data(Insecure.SHA1.hash(data: encoded))
    }

    /// `attributes` with their `sha1` set to the digest (replacing any earlier one).
    static func stamped(_ attributes: AttributeSet, secret: Data?, in itemClass: ItemClass) -> AttributeSet {
        var stamped = attributes
        stamped[QueryKey.sha1] = .data(sha1(of: attributes, secret: secret, in: itemClass))
        return stamped
    }

    /// `attributes` of an item read with its secret, with a `sha1` computed when none is stored (an item
    /// added before Coffer kept digests). Like Apple's `handle_result` (keychain/securityd/SecItemDb.c), which
    /// computes a missing `sha1` for a result only when the secret was read too: without it the digest would
    /// be wrong. The stored item gets its digest on its next update.
    static func filledIn(_ attributes: AttributeSet, secret: Data?, in itemClass: ItemClass) -> AttributeSet {
        attributes.contains(QueryKey.sha1) ? attributes : stamped(attributes, secret: secret, in: itemClass)
    }

    /// A stored value as the CF type Apple's item holds.
    private static func property(of value: AttributeValue) -> DERPropertyList? {
        switch value {
        case .string(let text): .string(text)
        case .data(let bytes): .data(bytes)
        case .number(let number): .integer(number)
        case .date(let moment): .date(moment.timeIntervalSinceReferenceDate)
        case .accessControl: nil  // `accc` has no H flag
        }
    }
}
