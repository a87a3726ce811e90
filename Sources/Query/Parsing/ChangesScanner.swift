import Foundation
import KeychainModel

/// Parses `SecItemUpdate`'s `attributesToUpdate` (§2.1): every key but `kSecValueData` must be an attribute.
enum ChangesScanner {
    static func request(_ changes: QueryDictionary, search: SearchRequest) throws(KeychainStatus) -> UpdateRequest {
        let itemClass = search.itemClass
        try QueryScanner.checkKeyLimit(changes, itemClass: itemClass)
        if !changes.nonStringKeys.isEmpty { throw .param }
        var update = UpdateRequest(search: search, changes: AttributeSet())
        var accessible: ProtectionClass?
        for (key, value) in changes.sortedStringEntries {
            if key == QueryKey.multiUser { continue }  // Apple refuses to update musr, silently
            if key == QueryKey.valueData {
                guard case .data(let secret) = value else { throw .param }  // U5
                try SizeLimits.checkValueData(secret)
                update.newValueData = secret
                continue
            }
            if key == QueryKey.useDataProtectionKeychain { continue }
            guard let descriptor = AttributeCatalogue.descriptor(for: key, in: itemClass) else {
                throw .noSuchAttribute  // U4
            }
            switch descriptor.callerAccess {
            case .forbidden, .sharingGroup: throw .param  // G14, U7
            case .managed, .callerView, .settable: break
            }
            if descriptor.kind == .sync, value == .string(QueryConstant.synchronizableAny) { continue }
            let coerced = try AttributeValue.coerce(value, to: descriptor.kind)
            switch descriptor.kind {
            case .access:
                guard let protection = ProtectionClass(rawValue: coerced.stringValue ?? "") else { throw .param }
                if update.newAccessControl != nil { throw .param }  // G9
                accessible = protection
            case .accessControl:
                guard case .accessControl(let control) = coerced else { throw .param }
                if accessible != nil { throw .param }  // G9
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
        if let protection = update.newProtection {
            try ItemRules.checkSynchronizable(update.changes[QueryKey.synchronizable] == .number(1), protection: protection)
        }
        return update
    }
}
