import Foundation
import KeychainModel

/// Parses `SecItemUpdate`'s `attributesToUpdate` (§2.1): every key but `kSecValueData` must be an attribute.
enum ChangesScanner {
    static func request(_ changes: QueryDictionary, search: SearchRequest) throws(QueryRejection) -> UpdateRequest {
        let itemClass = search.itemClass
        try QueryScanner.checkKeyLimit(changes, itemClass: itemClass)
        if let key = changes.nonStringKeys.first {
            throw .param(.g6, key: nil, "a key of attributesToUpdate must be a CFString; got a \(key.typeDescription) key")
        }
        var update = UpdateRequest(search: search, changes: AttributeSet())
        var accessible: ProtectionClass?
        for (key, value) in changes.sortedStringEntries {
            if key == QueryKey.multiUser { continue }  // Apple refuses to update musr, silently
            if key == QueryKey.valueData {
                guard case .data(let secret) = value else {
                    throw .wrongType(.u5, key: key, expected: "CFData", got: value)
                }
                try SizeLimits.checkValueData(secret)
                update.newValueData = secret
                continue
            }
            if key == QueryKey.useDataProtectionKeychain { continue }
            guard let descriptor = AttributeCatalogue.descriptor(for: key, in: itemClass) else {
                throw .notAnAttribute(key, of: itemClass, rule: .u4)
            }
            switch descriptor.callerAccess {
            case .forbidden: throw .notCallerSettable(key)
            case .sharingGroup: throw .param(.u7, key: key, "\(AppleNames.key(key)) cannot be changed by SecItemUpdate")
            case .managed, .callerView, .settable: break
            }
            if descriptor.kind == .sync, value == .string(QueryConstant.synchronizableAny) { continue }
            let coerced = try AttributeValue.coerce(value, to: descriptor.kind, key: key)
            switch descriptor.kind {
            case .access:
                guard let protection = ProtectionClass(rawValue: coerced.stringValue ?? "") else {
                    throw .notAProtectionClass(coerced.stringValue, key: key)
                }
                if update.newAccessControl != nil { throw .accessibleWithAccessControl(key: key) }
                accessible = protection
            case .accessControl:
                guard case .accessControl(let control) = coerced else { throw .notAnAccessControl(value) }
                if accessible != nil { throw .accessibleWithAccessControl(key: key) }
                update.newAccessControl = control
            case .sync:
                update.changes[key] = try QueryScanner.normalizedSynchronizable(coerced)
            case .modificationDate:
                break  // the engine stamps mdat
            default:
                if key == QueryKey.accessGroup {
                    update.newAccessGroup = coerced.stringValue
                } else if descriptor.callerAccess == .settable {
                    update.changes[key] = coerced
                }
            }
        }
        update.newProtection = update.newAccessControl?.protection ?? accessible
        return update
    }
}
