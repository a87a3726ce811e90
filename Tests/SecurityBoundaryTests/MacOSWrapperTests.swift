import Foundation
import Security
import Testing

/// A keychain wrapper in the style of the popular ones, as it compiles on Linux: `os(iOS)` is false there,
/// so it takes its macOS branch — the data-protection keychain, `kSecMatchLimitAll` on every delete, and
/// synchronizable items with any accessibility.
private struct MacOSWrapper {
    let service: String
    var synchronizable = false
    var accessibility: CFString = kSecAttrAccessibleAfterFirstUnlock

    enum Failure: Error, Equatable {
        case status(OSStatus)
    }

    private func query(_ key: String? = nil) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let key { query[kSecAttrAccount as String] = key }
        return query
    }

    func set(_ value: String, key: String) throws {
        var search = query(key)
        search[kSecMatchLimit as String] = kSecMatchLimitOne
        let attributes: [String: Any] = [
            kSecValueData as String: Data(value.utf8), kSecAttrAccessible as String: accessibility,
            kSecAttrSynchronizable as String: synchronizable,
        ]
        switch SecItemCopyMatching(search as CFDictionary, nil) {
        case errSecSuccess:
            let status = SecItemUpdate(query(key) as CFDictionary, attributes as CFDictionary)
            guard status == errSecSuccess else { throw Failure.status(status) }
        case errSecItemNotFound:
            let add = query(key).merging(attributes) { _, new in new }
            let status = SecItemAdd(add as CFDictionary, nil)
            guard status == errSecSuccess else { throw Failure.status(status) }
        case let status:
            throw Failure.status(status)
        }
    }

    func get(_ key: String) throws -> String? {
        var search = query(key)
        search[kSecMatchLimit as String] = kSecMatchLimitOne
        search[kSecReturnData as String] = true
        var result: CFTypeRef?
        switch SecItemCopyMatching(search as CFDictionary, &result) {
        case errSecSuccess: return (result as? Data).map { String(decoding: $0, as: UTF8.self) }
        case errSecItemNotFound: return nil
        case let status: throw Failure.status(status)
        }
    }

    func remove(_ key: String) throws {
        var delete = query(key)
        delete[kSecMatchLimit as String] = kSecMatchLimitAll
        let status = SecItemDelete(delete as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Failure.status(status) }
    }

    func removeAll() throws {
        var delete = query()
        delete[kSecMatchLimit as String] = kSecMatchLimitAll
        let status = SecItemDelete(delete as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Failure.status(status) }
    }

    func allKeys() throws -> [String] {
        var search = query()
        search[kSecMatchLimit as String] = kSecMatchLimitAll
        search[kSecReturnAttributes as String] = true
        var result: CFTypeRef?
        switch SecItemCopyMatching(search as CFDictionary, &result) {
        case errSecSuccess:
            return ((result as? [[String: Any]]) ?? []).compactMap { $0[kSecAttrAccount as String] as? String }.sorted()
        case errSecItemNotFound: return []
        case let status: throw Failure.status(status)
        }
    }
}

/// The wrapper's macOS branch end to end: D1 (`kSecMatchLimitAll` on delete) and A11 (synchronizable with a
/// `…ThisDeviceOnly` class) are what made such wrappers fail on Linux.
@Suite(.timeLimit(.minutes(10))) struct MacOSWrapperTests {
    @Test(arguments: BoundaryTransport.allCases) func setGetRemoveRemoveAllAndAllKeys(transport: BoundaryTransport) throws {
        try withFreshKeychain(transport) {
            let keychain = MacOSWrapper(service: "com.example.wrapper")
            try keychain.set("one", key: "a")
            try keychain.set("two", key: "b")
            try keychain.set("uno", key: "a")
            #expect(try keychain.get("a") == "uno")
            #expect(try keychain.allKeys() == ["a", "b"])
            try keychain.remove("a")
            #expect(try keychain.get("a") == nil)
            try keychain.remove("a")
            try keychain.removeAll()
            #expect(try keychain.allKeys() == [])
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func synchronizableItemsThatStayOnTheDevice(transport: BoundaryTransport) throws {
        try withFreshKeychain(transport) {
            var keychain = MacOSWrapper(service: "com.example.wrapper")
            keychain.synchronizable = true
            keychain.accessibility = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            try keychain.set("synced", key: "token")
            #expect(try keychain.get("token") == "synced")
            keychain.synchronizable = false
            try keychain.set("local", key: "token")
            #expect(try keychain.get("token") == "local")
            #expect(try keychain.allKeys() == ["token"])
            try keychain.removeAll()
            #expect(try keychain.get("token") == nil)
        }
    }
}
