import Foundation
import KeychainClient
import KeychainModel
import Query

// macOS's legacy calls on one item, the one a `SecKeychainItem` identifies.

/// Changes an item's attributes and data (`SecKeychainItemModifyAttributesAndData`).
///
/// - `attrList`: the attributes to change (see ``SecKeychainAttribute``), or nil to keep them. A tag that
///   is not an attribute of a password item is ``errSecNoSuchAttr``.
/// - `data`: the new password, `length` bytes, or nil to keep it.
/// - Nothing to change: ``errSecSuccess`` without touching the keychain.
/// - The item no longer exists: ``errSecItemNotFound``. A change that would make it equal to another
///   item: ``errSecDuplicateItem``.
@discardableResult
public func SecKeychainItemModifyAttributesAndData(
    _ itemRef: SecKeychainItem, _ attrList: UnsafePointer<SecKeychainAttributeList>?, _ length: UInt32,
    _ data: UnsafeRawPointer?
) -> OSStatus {
    var changes: QueryDictionary
    switch LegacyAttributeList.changes(attrList) {
    case .success(let parsed): changes = parsed
    case .failure(let failure):
        return LegacyPasswordCall.refuse("SecKeychainItemModifyAttributesAndData(\(itemRef))", failure.status, reason: failure.reason ?? "")
    }
    if let data { changes[QueryKey.valueData] = .data(LegacyPasswordCall.secret(data, count: length)) }
    guard changes.count > 0 else {
        Diagnostics.log("SecKeychainItemModifyAttributesAndData(\(itemRef), nothing to change)", status: .success)
        return errSecSuccess
    }
    let search = itemRef.search
    return LegacyPasswordCall.run(
        "SecKeychainItemModifyAttributesAndData(\(Diagnostics.render(search)), \(Diagnostics.render(changes)))"
    ) { client throws(KeychainFailure) in
        try client.blocking.update(search, attributesToUpdate: changes)
    }
}

/// Changes an item's attributes and data (`SecKeychainItemModifyContent`): the same as
/// ``SecKeychainItemModifyAttributesAndData(_:_:_:_:)``, under the older name much macOS code still calls.
@discardableResult
public func SecKeychainItemModifyContent(
    _ itemRef: SecKeychainItem, _ attrList: UnsafePointer<SecKeychainAttributeList>?, _ length: UInt32, _ data: UnsafeRawPointer?
) -> OSStatus {
    SecKeychainItemModifyAttributesAndData(itemRef, attrList, length, data)
}

/// Deletes the item from the keychain (`SecKeychainItemDelete`). The reference stays valid as an object;
/// an item already deleted is ``errSecItemNotFound``.
@discardableResult
public func SecKeychainItemDelete(_ itemRef: SecKeychainItem) -> OSStatus {
    let search = itemRef.search
    return LegacyPasswordCall.run("SecKeychainItemDelete(\(Diagnostics.render(search)))") { client throws(KeychainFailure) in
        try client.blocking.delete(search)
    }
}

/// Frees what a legacy call handed out (`SecKeychainItemFreeContent`): `data`, such as the password of
/// ``SecKeychainFindGenericPassword(_:_:_:_:_:_:_:_:)``, and the values of `attrList`'s entries (each
/// entry's `data` is then nil). Either may be nil. The memory is overwritten with zeros before it is freed.
/// Always ``errSecSuccess``.
@discardableResult
public func SecKeychainItemFreeContent(_ attrList: UnsafeMutablePointer<SecKeychainAttributeList>?, _ data: UnsafeMutableRawPointer?) -> OSStatus {
    if let data { LegacyPasswordCall.release(data) }
    if let attrList, let entries = attrList.pointee.attr {
        for index in 0..<Int(attrList.pointee.count) {
            if let value = entries[index].data { LegacyPasswordCall.release(value) }
            entries[index].data = nil
        }
    }
    return errSecSuccess
}
