import Foundation
import ItemStore
import KeychainModel
import Query

extension KeychainEngine {
    /// `SecItemAdd`: stores a new item and returns what the request's return flags ask for.
    ///
    /// The secret is encrypted before the insert, so a locked class fails with -25308 even when the
    /// item would be a duplicate (rule A2); `akpu` without a passcode fails with -25291 (A5). A
    /// uniqueness collision is -25299 (A1), unless the colliding row is undecryptable, which is replaced (§10.4).
    ///
    /// An access control with `biometryCurrentSet` is bound to the enrolled set in `authorization` (no
    /// biometry: -25293); with `applicationPassword`, the secret is sealed with the authorization's password
    /// (none: -25293, or -25308 when the call may not prompt).
    /// `trail`, when given, learns the new item's reference.
    public func add(
        _ request: AddRequest, caller: CallerContext, authorization: ItemAuthorization = .none, trail: ItemTrail? = nil
    ) throws(EngineRefusal) -> KeychainValue? {
        let (attributes, item) = try prepare(request, caller: caller, authorization: authorization)
        let stored = try mapped { try store.write { writer in try insertReplacingUndecryptable(item, writer: writer) } }
        trail?.note(request.itemClass, references: [persistentReferenceData(stored)])
        let snapshot = ItemSnapshot(
            itemClass: request.itemClass, attributes: attributes, data: request.valueData,
            persistentRef: persistentReference(stored))
        return ResultShaper.addResult(item: snapshot, returns: request.returns)
    }

    /// Adds many items in one transaction (bulk import): all are added, or none when one fails.
    /// Return flags are ignored. `progress` is called with the number of items prepared so far.
    public func add(
        contentsOf requests: [AddRequest], caller: CallerContext, progress: (Int) -> Void = { _ in }
    ) throws(EngineRefusal) {
        var items: [NewItem] = []
        items.reserveCapacity(requests.count)
        for (index, request) in requests.enumerated() {
            items.append(try prepare(request, caller: caller, authorization: .none).item)
            if index % 1000 == 999 { progress(index + 1) }
        }
        try mapped {
            try store.write { writer in
                for item in items { _ = try insertReplacingUndecryptable(item, writer: writer) }
            }
        }
        progress(requests.count)
    }

    /// Adds each item it can in one transaction (a bulk import): the answer holds, in order, `.success` for an
    /// item added and the status of one that was not (a duplicate, a locked class, a group the caller lacks).
    /// Return flags and access controls that need the person are answered as a single add would answer them
    /// without a context. A failure of the store adds nothing and is thrown.
    public func addEach(_ requests: [AddRequest], caller: CallerContext) throws(EngineRefusal) -> [KeychainStatus] {
        var outcomes = [KeychainStatus](repeating: .success, count: requests.count)
        var prepared: [(index: Int, item: NewItem)] = []
        prepared.reserveCapacity(requests.count)
        for (index, request) in requests.enumerated() {
            do {
                prepared.append((index, try prepare(request, caller: caller, authorization: .none).item))
            } catch {
                outcomes[index] = error.status
            }
        }
        let duplicates = try mapped { () throws -> [Int] in
            try store.write { writer in
                var duplicates: [Int] = []
                for (index, item) in prepared {
                    do {
                        _ = try insertReplacingUndecryptable(item, writer: writer)
                    } catch ItemStoreError.duplicateItem {
                        duplicates.append(index)
                    }
                }
                return duplicates
            }
        }
        for index in duplicates { outcomes[index] = .duplicateItem }
        return outcomes
    }

    /// The stored attributes (group, dates, protection and the `sha1` digest filled in) and the store's input
    /// for one add.
    private func prepare(
        _ request: AddRequest, caller: CallerContext, authorization: ItemAuthorization
    ) throws(EngineRefusal) -> (attributes: AttributeSet, item: NewItem) {
        try checkAccess(caller, explicitGroup: request.accessGroup)
        guard let group = request.accessGroup ?? caller.defaultGroup else { throw .noGroups }
        var attributes = request.attributes(withAccessGroup: group)
        let now = clock()
        attributes[QueryKey.creationDate] = .date(now)
        attributes[QueryKey.modificationDate] = .date(now)
        attributes[QueryKey.accessible] = .string(request.protection.rawValue)
        if let accessControl = request.accessControl {
            attributes[QueryKey.accessControl] = .accessControl(try AccessControlBinding.bound(accessControl, authorization))
        }
        let secret = try AccessControlBinding.sealed(
            request.valueData, attributes: attributes, authorization, ui: request.authentication.ui)
        // Last, over the finished attributes; a caller's own kSecAttrSHA1 never got this far (AddAssembler).
        attributes = ItemDigest.stamped(attributes, secret: secret, in: request.itemClass)
        let item = NewItem(
            itemClass: request.itemClass, protection: request.protection, attributes: attributes.encoded(),
            secret: secret,
            indexValues: ItemIndexing.indexValues(of: attributes, in: request.itemClass),
            uniqueKey: ItemIndexing.uniqueKey(of: attributes, in: request.itemClass),
            persistentRef: nil)
        return (attributes, item)
    }

    private func insertReplacingUndecryptable(_ item: NewItem, writer: ItemWriter) throws -> StoredItem {
        do {
            return try writer.insert(item)
        } catch ItemStoreError.duplicateItem {
            let colliding = try writer.select(ItemSelection(itemClass: item.itemClass, uniqueKey: item.uniqueKey))
            guard let existing = colliding.first else { throw ItemStoreError.duplicateItem }
            do {
                _ = try writer.openAttributes(existing)
            } catch  where StatusMapping.isUndecryptable(error) {
                logger.warning("replacing an undecryptable item that had the same primary key", metadata: ["row": "\(existing.rowID)"])
                return try writer.replace(rowID: existing.rowID, with: item)
            } catch {
                throw ItemStoreError.duplicateItem
            }
            throw ItemStoreError.duplicateItem
        }
    }
}
