import Foundation
import KeychainClient
import KeychainModel
import Query

/// Adds an item to the keychain (`SecItemAdd`).
///
/// `attributes` holds the item class, its attributes and its value; with `kSecReturn…` keys, the new item
/// is handed back through `result` as `SecItemCopyMatching` would, else `result` is left untouched. The
/// rules and statuses are Apple's (keychain reference §2, §3): the engine decides them, not this function.
/// A dictionary only macOS code sends is first translated as macOS translates it (docs/MacOSBranch.md).
@discardableResult
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    if let status = IdentityItemCalls.add(attributes, result) { return status }
    let query = ItemPreparation.added(attributes)
    let references = PasswordItemReferences(query)
    return ItemCall.run("SecItemAdd(\(Diagnostics.render(query)))", result: result, present: references.presenter(for: query)) {
        client throws(KeychainFailure) in
        let translated = try MacOSShim.translate(query, from: attributes, for: .add)
        return try client.blocking.add(references?.keychainQuery(translated.query) ?? translated.query)
    }
}

/// Finds items matching `query` and returns what its `kSecReturn…` keys ask for (`SecItemCopyMatching`).
///
/// Without `kSecMatchLimit` at most one item is returned. Results are Foundation objects: `as? Data`,
/// `as? [String: Any]`, `as? [[String: Any]]`, `as? [Data]` and `as? NSDictionary` work as on Apple platforms;
/// `kSecReturnRef` on a password answers a ``SecKeychainItem``, as on macOS; on a key a ``SecKey``, on a certificate
/// a ``SecCertificate``, on an identity a ``SecIdentity``.
/// When nothing matches the status is ``errSecItemNotFound`` and `result` is left untouched.
@discardableResult
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    let searched = ItemPreparation.searched(query)
    let parsed = searched.query, specialKeys = searched.specialKeys
    if specialKeys.contains(.certificateMatch), let status = CertificateMatchCall.copyMatching(query, searched: parsed, result) {
        return status
    }
    let references = specialKeys.contains(.returnRef) ? PasswordItemReferences(parsed) : nil
    let present = references.presenter(for: parsed, specialKeys: specialKeys)
    return ItemCall.run("SecItemCopyMatching(\(Diagnostics.render(parsed)))", result: result, present: present) {
        client throws(KeychainFailure) in
        let translated = try MacOSShim.translate(parsed, from: query, for: .copyMatching, specialKeys: specialKeys)
        let asked = references?.keychainQuery(translated.query) ?? translated.query
        if let items = translated.itemList {
            return try KeychainItemListCall.copyMatching(asked, items: items, client: client)
        }
        return try client.blocking.copyMatching(asked)
    }
}

/// Changes every item matching `query` to the values in `attributesToUpdate` (`SecItemUpdate`).
@discardableResult
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    if let status = IdentityItemCalls.update(query, attributesToUpdate) { return status }
    let searched = ItemPreparation.searched(query)
    let parsed = searched.query
    let changes = ItemPreparation.changes(attributesToUpdate)
    return ItemCall.run("SecItemUpdate(\(Diagnostics.render(parsed)), \(Diagnostics.render(changes)))", result: nil) {
        client throws(KeychainFailure) in
        let translated = try MacOSShim.translate(parsed, from: query, for: .update, specialKeys: searched.specialKeys)
        let newValues = MacOSShim.translateChanges(changes, from: attributesToUpdate)
        if let items = translated.itemList {
            try KeychainItemListCall.update(translated.query, items: items, changes: newValues, client: client)
        } else {
            try client.blocking.update(translated.query, attributesToUpdate: newValues)
        }
        return nil
    }
}

/// Deletes every item matching `query` (`SecItemDelete`). Deleting needs no class key, so it works while locked.
@discardableResult
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    if let status = IdentityItemCalls.delete(query) { return status }
    let searched = ItemPreparation.searched(query)
    let parsed = searched.query
    return ItemCall.run("SecItemDelete(\(Diagnostics.render(parsed)))", result: nil) { client throws(KeychainFailure) in
        let translated = try MacOSShim.translate(parsed, from: query, for: .delete, specialKeys: searched.specialKeys)
        if let items = translated.itemList {
            try KeychainItemListCall.delete(translated.query, items: items, client: client)
        } else {
            try client.blocking.delete(translated.query)
        }
        return nil
    }
}
