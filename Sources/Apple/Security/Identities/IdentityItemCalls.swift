import CertificateParsing
import Foundation
import KeychainModel
import Query

/// What Apple's client does with identities in `SecItemAdd`, `SecItemUpdate` and `SecItemDelete`
/// (`explode_identity`, `handleUpdateIdentity`; reference §7.4): an identity is no item of its own, so each
/// call runs on its certificate, then on its key.
///
/// - Add, with `kSecValueRef` an identity: the certificate is added, then the key. A certificate already there
///   is no failure if the key is added; a key already there is none after the certificate was added; both
///   there is `errSecDuplicateItem`. With `kSecReturnPersistentRef` alone, the result is the identity's
///   persistent reference (`idnt` and the certificate's row).
/// - Delete, with an identity: the certificate is deleted, then the key, unless another certificate of the
///   same public key is still in the keychain. With `kSecClass = kSecClassIdentity`: every matching
///   certificate, then every matching key. With an identity's persistent reference: the identity it names.
/// - Update, with an identity or `kSecClass = kSecClassIdentity`: the same change to the certificates, then
///   to the keys; the first failure is the call's.
enum IdentityItemCalls {
    /// `SecItemAdd` of the identity under `kSecValueRef`; nil when there is none.
    static func add(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus? {
        guard let identity = identity(in: attributes) else { return nil }
        let withCertificate = replacing(attributes, QueryKey.valueRef, with: identity.certificate)
        var certificateResult: CFTypeRef?
        var status =
            result == nil ? SecItemAdd(withCertificate, nil) : withUnsafeMutablePointer(to: &certificateResult) { SecItemAdd(withCertificate, $0) }
        let certificateWasThere = status == errSecDuplicateItem
        if certificateWasThere { status = errSecSuccess }
        guard status == errSecSuccess || status == errSecItemNotFound else { return status }
        var withKey = replacing(withCertificate, QueryKey.valueRef, with: identity.privateKey)
        withKey = replacing(withKey, QueryKey.returnPersistentRef, with: kCFBooleanFalse)
        status = SecItemAdd(withKey, nil)
        if status == errSecDuplicateItem, !certificateWasThere { status = errSecSuccess }
        if status == errSecSuccess, let result, let reference = certificateResult as? Data,
            let certificate = PersistentReference(data: reference), let uuid = certificate.uuid
        {
            result.pointee = ResultData(copying: PersistentReference(itemClass: .identity, uuid: uuid).data)
        }
        return status
    }

    /// `SecItemDelete` of an identity (by reference, by class or by persistent reference); nil when the
    /// query names none.
    static func delete(_ query: CFDictionary) -> OSStatus? {
        if let identity = identity(in: query) { return delete(identity, query: query) }
        let bridged = ValueBridge.query(query)
        if case .data(let bytes)? = bridged[QueryKey.valuePersistentRef], let reference = PersistentReference(data: bytes),
            reference.itemClass == .identity
        {
            let lookup: NSDictionary = [
                kSecValuePersistentRef: bytes as NSData, kSecReturnRef: kCFBooleanTrue as Any, kSecClass: kSecClassIdentity,
            ]
            var found: CFTypeRef?
            let status = SecItemCopyMatching(lookup, &found)
            guard status == errSecSuccess else { return status }
            guard let identity = found as? SecIdentity else { return errSecInvalidItemRef }
            let byReference = replacing(replacing(query, QueryKey.valuePersistentRef, with: nil), QueryKey.itemClass, with: nil)
            return delete(identity, query: byReference)
        }
        guard bridged[QueryKey.itemClass] == .string(ItemClass.identity.rawValue) else { return nil }
        let status = SecItemDelete(replacing(query, QueryKey.itemClass, with: kSecClassCertificate))
        guard status == errSecSuccess else { return status }
        return SecItemDelete(replacing(query, QueryKey.itemClass, with: kSecClassKey))
    }

    /// `SecItemUpdate` of an identity (by reference or by class); nil when the query names none.
    static func update(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus? {
        let parts: [CFDictionary]
        if let identity = identity(in: query) {
            parts = [
                replacing(query, QueryKey.valueRef, with: identity.certificate),
                replacing(query, QueryKey.valueRef, with: identity.privateKey),
            ]
        } else if ValueBridge.query(query)[QueryKey.itemClass] == .string(ItemClass.identity.rawValue) {
            parts = [
                replacing(query, QueryKey.itemClass, with: kSecClassCertificate),
                replacing(query, QueryKey.itemClass, with: kSecClassKey),
            ]
        } else {
            return nil
        }
        for part in parts {
            let status = SecItemUpdate(part, attributesToUpdate)
            guard status == errSecSuccess else { return status }
        }
        return errSecSuccess
    }

    /// Deletes `identity`'s certificate, then its key unless another certificate still pairs with it.
    private static func delete(_ identity: SecIdentity, query: CFDictionary) -> OSStatus {
        let withCertificate = replacing(query, QueryKey.valueRef, with: identity.certificate)
        let status = SecItemDelete(withCertificate)
        guard status == errSecSuccess || status == errSecItemNotFound else { return status }
        let certificate = identity.certificate
        let publicKeyHash = Data(CertificateItemFields(certificate.contents, certificate.attributes).publicKeyHash)
        let otherCertificate: NSDictionary = [kSecClass: kSecClassCertificate, kSecAttrPublicKeyHash: publicKeyHash as NSData]
        if SecItemCopyMatching(otherCertificate, nil) == errSecSuccess { return status }
        return SecItemDelete(replacing(withCertificate, QueryKey.valueRef, with: identity.privateKey))
    }

    /// The identity under `kSecValueRef`, if any.
    private static func identity(in dictionary: CFDictionary) -> SecIdentity? {
        // Every `SecItemAdd` and `SecItemDelete` asks: the stored keys are compared as they are (a length, then
        // the characters of a key that long) rather than each turned into a `String` by interpolation.
        var foundKey: AnyObject?
        let readAll = (dictionary as NSDictionary).forEachStoredEntry { key, _ in
            let matches: Bool
            if type(of: key) == NSString.self {
                let name = unsafeDowncast(key, to: NSString.self)
                matches = name.length == QueryKey.valueRef.utf16.count && name as String == QueryKey.valueRef
            } else {
                matches = "\(key)" == QueryKey.valueRef
            }
            guard matches else { return true }
            foundKey = key
            return false
        }
        if readAll == nil {
            for (key, value) in dictionary where "\(key)" == QueryKey.valueRef { return value as? SecIdentity }
            return nil
        }
        // The stored object may box the value (`__SwiftValue`): Foundation's reader unboxes it.
        return foundKey.flatMap { (dictionary as NSDictionary).object(forKey: $0) } as? SecIdentity
    }

    /// `dictionary` with the entry `key` set to `value` (removed when nil).
    private static func replacing(_ dictionary: CFDictionary, _ key: String, with value: Any?) -> CFDictionary {
        var copy: [AnyHashable: Any] = [:]
        for (existing, existingValue) in dictionary where "\(existing)" != key {
            guard let hashable = existing as? AnyHashable else { continue }
            copy[hashable] = existingValue
        }
        if let value { copy[AnyHashable(key)] = value }
        return NSDictionary(dictionary: copy)
    }
}
