import Foundation
import ItemStore
import KeychainModel
import Query

extension KeychainEngine {
    /// `SecItemUpdate`: rewrites every matching item in one transaction (§10.3).
    ///
    /// Each item is decrypted (so a locked class fails with -25308, rule U12), merged with the
    /// changes, re-encrypted with a fresh item key under its (possibly new) class, and written back
    /// to the same row with the same persistent reference. A uniqueness collision rolls the whole
    /// update back and returns -25299 (U10). `mdat` moves forward; `cdat` changes only when asked; `sha1` is
    /// recomputed (and so always changes, since `mdat` is part of it).
    ///
    /// Reading the old item needs what reading it needs (§6.2): its access control is enforced as by
    /// ``copyMatching(_:caller:authorization:)``. A secret sealed with an application password is sealed
    /// again with the authorization's password.
    /// `trail`, when given, learns the items changed.
    public func update(
        _ request: UpdateRequest, caller: CallerContext, authorization: ItemAuthorization = .none, trail: ItemTrail? = nil
    ) throws(EngineRefusal) {
        try checkAccess(caller, explicitGroup: request.search.accessGroup)
        if let group = request.newAccessGroup, !caller.mayUse(group) { throw .outsideGroups(group, .u6) }
        let now = clock()
        try mapped(duplicateRule: .u10) {
            try store.write { writer in
                let outcome = try openMatches(
                    request.search, caller: caller, limit: nil, loadData: true, reader: writer, authorization: authorization)
                if !outcome.undecryptable.isEmpty { _ = try writer.delete(outcome.undecryptable) }
                guard !outcome.matches.isEmpty else { throw EngineRefusal.nothingMatched(.u9) }
                trail?.note(request.search.itemClass, references: outcome.matches.map { persistentReferenceData($0.stored) })
                for item in outcome.matches {
                    try writer.replace(
                        rowID: item.stored.rowID, with: updated(item, request: request, now: now, authorization: authorization))
                }
            }
        }
    }

    private func updated(
        _ item: OpenedItem, request: UpdateRequest, now: Date, authorization: ItemAuthorization
    ) throws(EngineRefusal) -> NewItem {
        let itemClass = item.stored.itemClass
        var attributes = item.attributes.merging(request.changes)
        if let group = request.newAccessGroup { attributes[QueryKey.accessGroup] = .string(group) }

        var protection = request.newProtection ?? item.stored.protection
        if let accessControl = request.newAccessControl {
            protection = accessControl.protection
            attributes[QueryKey.accessControl] = .accessControl(try AccessControlBinding.bound(accessControl, authorization))
        } else if request.newProtection != nil, case .accessControl(let old)? = item.attributes[QueryKey.accessControl] {
            attributes[QueryKey.accessControl] = .accessControl(
                AccessControl(protection: protection, flags: old.flags, boundBiometrySet: old.boundBiometrySet))
        }
        attributes[QueryKey.accessible] = .string(protection.rawValue)

        var modified = now
        if case .date(let previous)? = item.attributes[QueryKey.modificationDate], modified <= previous {
            modified = previous.addingTimeInterval(0.001)
        }
        attributes[QueryKey.modificationDate] = .date(modified)
        if !request.changes.contains(QueryKey.creationDate) {
            attributes[QueryKey.creationDate] = item.attributes[QueryKey.creationDate]
        }
        // Recomputed from the merged attributes and secret (a caller's kSecAttrSHA1 is never a change, as on
        // Apple's keychain); this is also how an item stored before Coffer kept digests gets one.
        let plain = request.newValueData ?? item.data
        let secret = try AccessControlBinding.sealed(plain, attributes: attributes, authorization, ui: request.search.authenticationUI)
        attributes = ItemDigest.stamped(attributes, secret: secret, in: itemClass)

        return NewItem(
            itemClass: itemClass, protection: protection, attributes: attributes.encoded(),
            secret: secret,
            indexValues: ItemIndexing.indexValues(of: attributes, in: itemClass),
            uniqueKey: ItemIndexing.uniqueKey(of: attributes, in: itemClass),
            persistentRef: item.stored.persistentRef)
    }
}
