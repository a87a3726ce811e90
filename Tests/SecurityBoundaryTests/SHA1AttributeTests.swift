import Foundation
import Security
import Testing

/// `kSecAttrSHA1` (`sha1`) through the public calls, on both transports: Apple's keychain returns it in
/// attribute results, computes it on every add and update, matches on it as on any attribute, and never
/// takes a caller's value (docs/MacOSBranch.md; reference §5.6).
@Suite(.timeLimit(.minutes(10))) struct SHA1AttributeTests {
    private static let service = "digest"

    private static func genp(_ account: String, _ extra: [String: Any] = [:]) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ].merging(extra) { _, new in new }
    }

    private static func inet(_ server: String, _ extra: [String: Any] = [:]) -> [String: Any] {
        [
            kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: server,
            kSecAttrAccount as String: "me", kSecAttrProtocol as String: kSecAttrProtocolHTTPS,
        ].merging(extra) { _, new in new }
    }

    /// Adds `item` asking for its attributes; the status and the returned `sha1`.
    private static func add(_ item: [String: Any]) -> (OSStatus, Data?) {
        var result: CFTypeRef?
        var query = item
        query[kSecReturnAttributes as String] = true
        let status = SecItemAdd(query as CFDictionary, &result)
        return (status, (result as? [String: Any])?[kSecAttrSHA1 as String] as? Data)
    }

    /// The `sha1` CopyMatching returns for `query` (attributes, plus data when asked), or nil.
    private static func sha1(_ query: [String: Any], withData: Bool = false) -> Data? {
        var result: CFTypeRef?
        var find = query
        find[kSecReturnAttributes as String] = true
        if withData { find[kSecReturnData as String] = true }
        guard SecItemCopyMatching(find as CFDictionary, &result) == errSecSuccess else { return nil }
        return (result as? [String: Any])?[kSecAttrSHA1 as String] as? Data
    }

    /// SecItemAdd's attribute result carries a 20-byte `sha1` for both password classes, and CopyMatching
    /// returns the same digest, with or without the data.
    @Test(arguments: BoundaryTransport.allCases) func addReturnsTheDigest(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            for item in [Self.genp("a", [kSecValueData as String: Data("pw".utf8)]), Self.inet("example.com")] {
                let (status, digest) = Self.add(item)
                #expect(status == errSecSuccess)
                #expect(digest?.count == 20)
                #expect(Self.sha1(item) == digest)
                #expect(Self.sha1(item, withData: true) == digest)
            }
        }
    }

    /// An update recomputes the digest: new data changes it, a new label changes it, and so does an update that
    /// changes no value, because the modification date it moves is part of the digest (every attribute the
    /// caller can set is; the ones that are not cannot be changed by an update).
    @Test(arguments: BoundaryTransport.allCases) func everyUpdateChangesTheDigest(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            let item = Self.genp("a", [kSecValueData as String: Data("one".utf8)])
            let query = Self.genp("a")
            var seen = [Self.add(item).1]
            let changes: [[String: Any]] = [
                [kSecValueData as String: Data("two".utf8)], [kSecAttrLabel as String: "L"],
                [kSecAttrLabel as String: "L"], [:],
            ]
            for change in changes {
                #expect(SecItemUpdate(query as CFDictionary, change as CFDictionary) == errSecSuccess)
                let digest = Self.sha1(query)
                #expect(digest?.count == 20)
                #expect(!seen.contains(digest), "\(change)")
                seen.append(digest)
            }
        }
    }

    /// A caller's own `kSecAttrSHA1` is checked (20 bytes of data, else -50) and then ignored by an add and by
    /// an update: the item gets the computed digest. Apple's `query_add_attribute_with_desc`
    /// (keychain/securityd/SecDbQuery.c) keeps a SHA1-kind value out of the item it builds, and
    /// `SecDbItemCopyWithUpdates` (SecDbItem.c) never copies `sha1` from the changes.
    @Test(arguments: BoundaryTransport.allCases) func callerDigestIsIgnored(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            let forged = Data(repeating: 0xAB, count: 20)
            let (status, digest) = Self.add(Self.genp("a", [kSecAttrSHA1 as String: forged]))
            #expect(status == errSecSuccess)
            #expect(digest != nil && digest != forged)
            #expect(Self.sha1(Self.genp("a")) == digest)
            #expect(Self.add(Self.genp("b", [kSecAttrSHA1 as String: Data(count: 19)])).0 == errSecParam)
            #expect(Self.add(Self.genp("b", [kSecAttrSHA1 as String: "not data"])).0 == errSecParam)

            let update = [kSecAttrSHA1 as String: forged]
            #expect(SecItemUpdate(Self.genp("a") as CFDictionary, update as CFDictionary) == errSecSuccess)
            let updated = Self.sha1(Self.genp("a"))
            #expect(updated?.count == 20 && updated != forged && updated != digest)
            let wrong = [kSecAttrSHA1 as String: Data(count: 21)]
            #expect(SecItemUpdate(Self.genp("a") as CFDictionary, wrong as CFDictionary) == errSecParam)
        }
    }

    /// `kSecAttrSHA1` in a query is an equality filter like any attribute, in every call: Apple's
    /// `query_add_attribute_with_desc` (SecDbQuery.c) records it among the query's attribute pairs, which
    /// `s3dl_create_select_sql` (SecItemDb.c) turns into `sha1 = ?` on the plain, indexed `sha1` column.
    @Test(arguments: BoundaryTransport.allCases) func digestIsAnEqualityFilter(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            let first = Self.add(Self.genp("a")).1 ?? Data()
            let second = Self.add(Self.genp("b")).1 ?? Data()
            #expect(first != second)
            let byDigest = [kSecClass as String: kSecClassGenericPassword, kSecAttrSHA1 as String: first] as [String: Any]
            var result: CFTypeRef?
            var find = byDigest
            find[kSecReturnAttributes as String] = true
            find[kSecMatchLimit as String] = kSecMatchLimitAll
            #expect(SecItemCopyMatching(find as CFDictionary, &result) == errSecSuccess)
            let found = result as? [[String: Any]]
            #expect(found?.count == 1)
            #expect(found?.first?[kSecAttrAccount as String] as? String == "a")

            let unknown = [kSecClass as String: kSecClassGenericPassword, kSecAttrSHA1 as String: Data(count: 20)] as [String: Any]
            #expect(SecItemCopyMatching(unknown as CFDictionary, nil) == errSecItemNotFound)
            let short = [kSecClass as String: kSecClassGenericPassword, kSecAttrSHA1 as String: Data(count: 4)] as [String: Any]
            #expect(SecItemCopyMatching(short as CFDictionary, nil) == errSecParam)

            // Update and delete select by it too; the update gives the item a new digest.
            let label = [kSecAttrLabel as String: "L"]
            #expect(SecItemUpdate(byDigest as CFDictionary, label as CFDictionary) == errSecSuccess)
            #expect(SecItemUpdate(byDigest as CFDictionary, label as CFDictionary) == errSecItemNotFound)
            let bySecond = [kSecClass as String: kSecClassGenericPassword, kSecAttrSHA1 as String: second] as [String: Any]
            #expect(SecItemDelete(bySecond as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching(Self.genp("b") as CFDictionary, nil) == errSecItemNotFound)
            #expect(SecItemCopyMatching(Self.genp("a") as CFDictionary, nil) == errSecSuccess)
        }
    }
}
