import Foundation
import KeychainModel
import Query

// How the `kSec…` item constants (keychain reference §1, §2, §4.1, §7) get Apple's string values.
//
// The values come from the Query module's tables (QueryKey, QueryConstant, the attribute schema) and
// ProtectionClass, which were checked against Apple's source; only the key attribute values of §7, which
// no Coffer table holds yet, are written out (KeyAttributeValueConstants.swift, from Apple's SecItemConstants.c).
//
// `nonisolated(unsafe)` on every constant: on Apple platforms these are `CFString`s; here `CFString` is
// `NSString`, which swift-corelibs-foundation does not mark `Sendable`. Each constant is an immutable
// `NSString` that is never mutated after its one-time, thread-safe initialisation, so sharing it between
// threads is safe.

extension CFString {
    /// A constant's `NSString`.
    static func constant(_ value: String) -> CFString { NSString(string: value) }

    /// The code of the attribute Apple names `constantName`, from Query's attribute schema.
    static func schemaAttribute(_ constantName: String) -> CFString {
        for itemClass in ItemClass.allCases {
            if let descriptor = AttributeCatalogue.descriptors(for: itemClass).first(where: { $0.constantName == constantName }) {
                return constant(descriptor.code)
            }
        }
        preconditionFailure("\(constantName) is missing from the Query module's attribute schema")
    }

    /// The value a Query table lists under `name` (a constant's suffix, or its whole name).
    static func tableValue(_ table: [String: String], _ name: String) -> CFString {
        guard let value = table[name] else { preconditionFailure("\(name) is missing from the Query module's tables") }
        return constant(value)
    }

    /// One of the entitlement-gated `kSecUse…` keys Query lists.
    static func entitledUseKey(_ key: String) -> CFString {
        guard QueryKey.entitledUseKeys.contains(key) else { preconditionFailure("\(key) is missing from QueryKey.entitledUseKeys") }
        return constant(key)
    }
}
