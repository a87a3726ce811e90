import Foundation
import Security
import Testing

/// `kSecReturnRef` on passwords answers a `SecKeychainItem`, as macOS's shim answers it
/// (`SecItemCreateFromAttributeDictionary_osx`), and code passes it back as `kSecValueRef`, in
/// `kSecMatchItemList` or to `SecKeychainItemDelete`; on both transports.
@Suite(.timeLimit(.minutes(10))) struct PasswordItemReferenceTests {
    private static let service = "refs"

    private static func add(_ account: String) -> Bool {
        let item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: account, kSecValueData as String: Data("pw-\(account)".utf8),
        ]
        return SecItemAdd(item as CFDictionary, nil) == errSecSuccess
    }

    private static func query(_ account: String? = nil, _ extra: [String: Any] = [:]) -> [String: Any] {
        var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
        if let account { query[kSecAttrAccount as String] = account }
        return query.merging(extra) { _, new in new }
    }

    private static func copy(_ query: [String: Any]) -> (OSStatus, CFTypeRef?) {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result)
    }

    private static func reference(_ account: String) -> SecKeychainItem? {
        copy(query(account, [kSecReturnRef as String: true])).1 as? SecKeychainItem
    }

    /// Every shape a result with a reference takes: alone, in a dictionary (with the persistent reference
    /// only when asked for), in an array; and from `SecItemAdd`.
    @Test(arguments: BoundaryTransport.allCases) func referenceResultShapes(transport: BoundaryTransport) throws {
        try withFreshKeychain(transport) {
            #expect(Self.add("alice"))
            let item = try #require(Self.reference("alice"))
            #expect(CFGetTypeID(item) == SecKeychainItemGetTypeID())

            let (_, found) = Self.copy(Self.query("alice", [kSecReturnRef as String: true, kSecReturnAttributes as String: true]))
            let dictionary = try #require(found as? [String: Any])
            #expect(dictionary[kSecValueRef as String] as? SecKeychainItem == item)
            #expect(dictionary[kSecValuePersistentRef as String] == nil)
            #expect(dictionary[kSecAttrAccount as String] as? String == "alice")

            let both = Self.copy(Self.query("alice", [kSecReturnRef as String: true, kSecReturnPersistentRef as String: true])).1
            let pair = try #require(both as? [String: Any])
            #expect(pair[kSecValueRef as String] as? SecKeychainItem == item)
            #expect(pair[kSecValuePersistentRef as String] is Data)

            let withData = Self.copy(Self.query("alice", [kSecReturnRef as String: true, kSecReturnData as String: true])).1
            #expect((withData as? [String: Any])?[kSecValueData as String] as? Data == Data("pw-alice".utf8))

            #expect(Self.add("bob"))
            let all = Self.copy(Self.query(nil, [kSecReturnRef as String: true, kSecMatchLimit as String: kSecMatchLimitAll])).1
            let items = try #require(all as? [Any])
            #expect(items.count == 2)
            #expect(items.allSatisfy { $0 is SecKeychainItem })
            #expect(items.contains { ($0 as? SecKeychainItem) == item })

            var added: CFTypeRef?
            let new: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: Self.service,
                kSecAttrAccount as String: "carol", kSecValueData as String: Data("x".utf8), kSecReturnRef as String: true,
            ]
            #expect(SecItemAdd(new as CFDictionary, &added) == errSecSuccess)
            #expect(added as? SecKeychainItem == Self.reference("carol"))
        }
    }

    /// The reference is the item: it reads it as `kSecValueRef`, updates and deletes it, and is the one
    /// the legacy calls hand out.
    @Test(arguments: BoundaryTransport.allCases) func referenceAsValueRef(transport: BoundaryTransport) throws {
        try withFreshKeychain(transport) {
            #expect(Self.add("alice"))
            let item = try #require(Self.reference("alice"))
            var legacy: SecKeychainItem?
            #expect(SecKeychainFindGenericPassword(nil, 4, "refs", 5, "alice", nil, nil, &legacy) == errSecSuccess)
            #expect(legacy == item)

            let byRef: [String: Any] = [kSecValueRef as String: item, kSecReturnData as String: true]
            #expect(Self.copy(byRef).1 as? Data == Data("pw-alice".utf8))
            let change = [kSecValueData as String: Data("new".utf8)] as CFDictionary
            #expect(SecItemUpdate([kSecValueRef as String: item] as CFDictionary, change) == errSecSuccess)
            #expect(Self.copy(byRef).1 as? Data == Data("new".utf8))
            #expect(SecItemDelete([kSecValueRef as String: item] as CFDictionary) == errSecSuccess)
            #expect(Self.copy(byRef).0 == errSecItemNotFound)
            #expect(SecKeychainItemDelete(item) == errSecItemNotFound)

            // Adding by a password's reference is -50, as adding by any reference but a key's, a
            // certificate's or an identity's (rule A8).
            #expect(Self.add("bob"))
            let bob = try #require(Self.reference("bob"))
            let byReference: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecValueRef as String: bob]
            #expect(SecItemAdd(byReference as CFDictionary, nil) == errSecParam)
        }
    }

    /// `kSecMatchItemList` of references limits a search, an update and a delete to the listed items that
    /// also match; nothing listed matching is -25300.
    @Test(arguments: BoundaryTransport.allCases) func itemListLimitsEveryCall(transport: BoundaryTransport) throws {
        try withFreshKeychain(transport) {
            for account in ["alice", "bob", "carol"] { #expect(Self.add(account)) }
            let alice = try #require(Self.reference("alice"))
            let bob = try #require(Self.reference("bob"))
            let list: [String: Any] = [kSecMatchItemList as String: [alice, bob]]

            let (status, found) = Self.copy(
                Self.query(
                    nil,
                    list.merging([
                        kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
                    ]) { _, new in new }))
            #expect(status == errSecSuccess)
            let accounts = (found as? [[String: Any]])?.compactMap { $0[kSecAttrAccount as String] as? String }
            #expect(accounts == ["alice", "bob"])
            let one = Self.copy(Self.query("bob", list.merging([kSecReturnData as String: true]) { _, new in new }))
            #expect(one.1 as? Data == Data("pw-bob".utf8))
            #expect(Self.copy(Self.query("carol", list)).0 == errSecItemNotFound)

            let label = [kSecAttrLabel as String: "listed"] as CFDictionary
            #expect(SecItemUpdate(Self.query(nil, list) as CFDictionary, label) == errSecSuccess)
            let labelled =
                Self.copy(
                    Self.query(
                        nil,
                        [
                            kSecAttrLabel as String: "listed", kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnRef as String: true,
                        ])
                ).1 as? [Any]
            #expect(labelled?.count == 2)

            #expect(SecItemDelete(Self.query(nil, [kSecMatchItemList as String: [alice]]) as CFDictionary) == errSecSuccess)
            #expect(Self.reference("alice") == nil)
            #expect(Self.reference("bob") != nil && Self.reference("carol") != nil)
            #expect(SecItemDelete(Self.query(nil, [kSecMatchItemList as String: [alice]]) as CFDictionary) == errSecItemNotFound)
        }
    }
}
