import Foundation
import Security

/// Keeps one API token per account.
struct TokenStore {
    let service = "com.example.sample"

    func save(_ token: Data, account: String) -> OSStatus {
        let attributes: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecValueData as String: token,
            kSecMatchLimit as String: kSecMatchLimitOne,
        ]
        print("saving \(token)")
        return SecItemAdd(attributes as CFDictionary, nil)
    }

    func forget(account: String) {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
        SecItemDelete(query as CFDictionary)
        // coffer-lint:disable status-ignored
        SecItemDelete(query as CFDictionary)
    }
}
