import Foundation
import LocalAuthentication
import Security

/// A keychain wrapper that follows the advice: adds, and updates only on errSecDuplicateItem; one result unless it
/// asks for all; every status read; the data-protection keychain on the macOS branch; a context for protected items.
final class CarefulKeychain {
    enum Failure: Error { case status(OSStatus), unexpectedResult }

    private let service: String

    init(service: String) { self.service = service }

    private func baseQuery(account: String) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
        #if os(iOS)
        #else
        query[kSecUseDataProtectionKeychain as String] = true
        #endif
        return query
    }

    func save(_ secret: Data, account: String) throws {
        var attributes = baseQuery(account: account)
        attributes[kSecValueData as String] = secret
        attributes[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
        var status = SecItemAdd(attributes as CFDictionary, nil)
        if status == errSecDuplicateItem {
            let changes: [String: Any] = [kSecValueData as String: secret]
            status = SecItemUpdate(baseQuery(account: account) as CFDictionary, changes as CFDictionary)
        }
        guard status == errSecSuccess else { throw Failure.status(status) }
    }

    func secret(account: String) throws -> Data? {
        var query = baseQuery(account: account)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw Failure.status(status) }
        guard let data = result as? Data else { throw Failure.unexpectedResult }
        return data
    }

    func accounts() throws -> [String] {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecReturnAttributes as String: true,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess, let items = result as? [[String: Any]] else { throw Failure.status(status) }
        return items.compactMap { $0[kSecAttrAccount as String] as? String }
    }

    func remove(account: String) throws {
        let status = SecItemDelete(baseQuery(account: account) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Failure.status(status) }
    }

    private func vaultQuery(account: String) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "com.example.vault", kSecAttrAccount as String: account]
    }

    func protect(_ secret: Data, account: String) throws {
        guard let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .userPresence, nil) else {
            throw Failure.unexpectedResult
        }
        var attributes = vaultQuery(account: account)
        attributes[kSecAttrAccessControl as String] = access
        attributes[kSecValueData as String] = secret
        let status = SecItemAdd(attributes as CFDictionary, nil)
        guard status == errSecSuccess else { throw Failure.status(status) }
    }

    func protectedSecret(account: String, context: LAContext) throws -> Data {
        var query = vaultQuery(account: account)
        query[kSecReturnData as String] = true
        query[kSecUseAuthenticationContext as String] = context
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status == errSecSuccess, let data = result as? Data else { throw Failure.status(status) }
        print("read a protected secret of \(data.count) bytes")
        return data
    }
}
