import Foundation
import Security

// Each pitfall line ends with the rules it should raise, after "expect:". Lines without one raise nothing.

/// A keychain helper in the style tutorials teach, with the pitfalls Apple's DTS engineers see most.
class KeychainHelper {
    static let shared = KeychainHelper()
    let service = "com.example.notes"

    func saveToKeychain(_ data: Data, account: String) {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAlways,  // expect: accessible-always
        ]
        let status = SecItemAdd(query as CFDictionary, nil)
        if status != errSecSuccess {
            let search: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
            let changes: [String: Any] = [kSecValueData as String: data]
            SecItemUpdate(search as CFDictionary, changes as CFDictionary)  // expect: status-ignored, duplicate-not-checked
        }
    }

    func set(_ value: String, forKey key: String) {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: key]
        SecItemDelete(query as CFDictionary)  // expect: status-ignored, delete-then-add
        var attributes = query
        attributes[kSecValueData as String] = value.data(using: .utf8)
        attributes[kSecMatchLimit as String] = kSecMatchLimitOne  // expect: match-limit-in-add
        _ = SecItemAdd(attributes as CFDictionary, nil)  // expect: status-ignored
    }

    func allKeys() -> [String] {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecReturnAttributes as String: true,
        ]
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)  // expect: missing-match-limit
        guard status == errSecSuccess, let items = result as? [[String: Any]] else { return [] }
        return items.compactMap { $0[kSecAttrAccount as String] as? String }
    }

    func token(account: String) -> String? {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecReturnData as String: true,
        ]
        var result: AnyObject?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess, let data = result as? Data else { return nil }
        let token = String(data: data, encoding: .utf8)
        print("Loaded token: \(token ?? "")")  // expect: secret-in-log
        return token
    }

    func rename(account: String, to newAccount: String) -> OSStatus {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account]
        let changes: [String: Any] = [
            kSecAttrAccount as String: newAccount,
            kSecReturnAttributes as String: true,  // expect: return-in-update
        ]
        return SecItemUpdate(query as CFDictionary, changes as CFDictionary)
    }

    func saveNote(_ note: Data, title: String) -> OSStatus {
        let attributes: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "notes",
            kSecAttrLabel as String: title,
            kSecValueData as String: note,
        ]
        return SecItemAdd(attributes as CFDictionary, nil)  // expect: primary-key-incomplete
    }

    func note(titled title: String) -> OSStatus {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "notes", kSecAttrLabel as String: title]
        return SecItemCopyMatching(query as CFDictionary, nil)
    }

    func saveSynced(_ secret: Data) -> OSStatus {
        let attributes: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: "synced",
            kSecAttrServer as String: "example.com",  // expect: attribute-not-in-class
            kSecAttrSynchronizable as String: true,  // expect: synchronizable-this-device-only
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            kSecValueData as String: secret,
        ]
        return SecItemAdd(attributes as CFDictionary, nil)
    }

    func installDefaultKey() -> OSStatus {
        let defaultPassword = "correct horse battery staple"
        let attributes: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: "default",
            kSecValueData as String: defaultPassword.data(using: .utf8)!,  // expect: hard-coded-secret
        ]
        return SecItemAdd(attributes as CFDictionary, nil)
    }

    func rememberLogin(password: String) {
        UserDefaults.standard.set(password, forKey: "savedPassword")  // expect: secret-in-user-defaults
    }

    func cacheProfile(_ profile: Data, at url: URL) throws {
        try profile.write(to: url, options: .completeFileProtection)  // expect: file-protection-on-linux
    }

    func removeAll() -> OSStatus {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
        #if os(iOS)
        return SecItemDelete(query as CFDictionary)
        #else
        return SecItemDelete(query as CFDictionary)  // expect: data-protection-keychain-missing
        #endif
    }
}
