import CofferTestSupport
import Foundation
import Security
import Testing

/// Query dictionaries built from Security's constants compare as they do on Apple platforms, where a `CFString`
/// is the `String` with its characters and a `CFBoolean` the `Bool`: wrappers (SimpleKeychain's tests among them)
/// compare their queries with `NSDictionary(dictionary:).isEqual(to:)`.
@Suite struct DictionaryEqualityTests {
    private func equal(_ left: [String: Any], _ right: [String: Any]) -> Bool {
        NSDictionary(dictionary: left).isEqual(to: right)
    }

    /// A generic-password query as such a wrapper builds it.
    private func baseQuery(account: String?, data: Data? = nil, synchronizable: Bool = false) -> [String: Any] {
        var query: [String: Any] = [:]
        query[kSecClass as String] = kSecClassGenericPassword
        query[kSecAttrService as String] = "com.example.wrapper"
        if let account { query[kSecAttrAccount as String] = account }
        if let data { query[kSecValueData as String] = data }
        if synchronizable { query[kSecAttrSynchronizable as String] = kCFBooleanTrue }
        return query
    }

    @Test func aQueryOfSecurityConstantsEqualsItselfThroughNSDictionary() {
        let base = baseQuery(account: "foo", data: Data("secret".utf8), synchronizable: true)
        #expect(equal(base, base))
        var getOne = base
        getOne[kSecReturnData as String] = kCFBooleanTrue
        getOne[kSecMatchLimit as String] = kSecMatchLimitOne
        #expect(equal(getOne, getOne))
        // The wrapper's check: the query, filtered to the base query's keys, is the base query.
        #expect(equal(getOne.filter { base.keys.contains($0.key) }, base))
        var getAll = baseQuery(account: nil)
        getAll[kSecReturnAttributes as String] = kCFBooleanTrue
        getAll[kSecMatchLimit as String] = kSecMatchLimitAll
        #expect(equal(getAll, getAll))
        // A constant and a String of its characters are one value, as on Apple platforms.
        #expect(equal([kSecClass as String: kSecClassGenericPassword], [kSecClass as String: "genp"]))
        #expect(equal([kSecReturnData as String: kCFBooleanTrue!], [kSecReturnData as String: true]))
        #expect(AnyHashable(kSecClassGenericPassword) == AnyHashable("genp"))
        #expect(AnyHashable(kCFBooleanFalse!) == AnyHashable(false))
    }

    @Test func differentQueriesStayDifferent() {
        let base = baseQuery(account: "foo")
        #expect(!equal(base, baseQuery(account: "bar")))
        #expect(
            !equal(base, [kSecClass as String: kSecClassInternetPassword, kSecAttrService as String: "com.example.wrapper", kSecAttrAccount as String: "foo"]))
        #expect(!equal([kSecReturnData as String: kCFBooleanTrue!], [kSecReturnData as String: kCFBooleanFalse!]))
        #expect(!equal([kSecMatchLimit as String: kSecMatchLimitOne], [kSecMatchLimit as String: kSecMatchLimitAll]))
        #expect(AnyHashable(NSNumber(value: 1)) != AnyHashable(kCFBooleanTrue!))
    }

    @Test(arguments: Transport.allCases) func theComparedQueriesStillAddAndFind(transport: Transport) throws {
        try withFreshKeychain(transport: transport) {
            let add = baseQuery(account: "foo", data: Data("secret".utf8), synchronizable: true)
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            var getOne = baseQuery(account: "foo", synchronizable: true)
            getOne[kSecReturnData as String] = kCFBooleanTrue
            getOne[kSecMatchLimit as String] = kSecMatchLimitOne
            #expect(equal(getOne, getOne))
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(getOne as CFDictionary, &result) == errSecSuccess)
            #expect(result as? Data == Data("secret".utf8))
        }
    }
}
