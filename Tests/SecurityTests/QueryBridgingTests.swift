import Foundation
import Query
import Testing

@testable import Security

/// The fast reading of callers' dictionaries (``PlainDictionaryReader``) gives what the general reading gives,
/// and ``SpecialKeys`` finds every key a `SecItem` pass acts on.
@Suite(.timeLimit(.minutes(10))) struct QueryBridgingTests {
    /// Dictionaries of the classes the fast reader knows, as callers build them.
    static func plainDictionaries() -> [NSDictionary] {
        [
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "bench",
                kSecAttrAccount as String: "account-7", kSecReturnData as String: true,
            ] as NSDictionary,
            [
                kSecClass: kSecClassInternetPassword, kSecAttrServer: "example.com", kSecAttrPort: 443,
                kSecValueData: Data("hunter2".utf8), kSecReturnAttributes: kCFBooleanTrue as Any, kSecReturnData: kCFBooleanFalse as Any,
                kSecMatchLimit: kSecMatchLimitAll,
            ] as NSDictionary,
            [
                "flag": false, "yes": NSNumber(value: true), "int": 5, "negative": Int64(-3), "double": 2.5, "float": Float(1.5),
                "huge": UInt64.max, "byte": NSNumber(value: Int8(3)), "unsigned": NSNumber(value: UInt32(7)), "zero": 0, "one": 1,
                "data": NSData(data: Data([1, 2, 3])), "empty data": Data(), "empty": "", "é": "e\u{301}", "emoji": "🔑",
                "limit": kSecMatchLimitOne,
            ] as NSDictionary,
            NSMutableDictionary(dictionary: [kSecClass as String: kSecClassKey, kSecAttrKeySizeInBits as String: 256]),
            NSDictionary(),
        ]
    }

    @Test func plainDictionariesReadAsTheGeneralReadingReadsThem() throws {
        for dictionary in Self.plainDictionaries() {
            let plain = try #require(PlainDictionaryReader.query(dictionary), "\(dictionary)")
            #expect(plain == ValueBridge.generalQuery(dictionary), "\(dictionary)")
            #expect(ValueBridge.query(dictionary) == plain)
        }
    }

    /// Dictionaries holding an object of another class, or a key that is no string.
    static func otherDictionaries() -> [NSDictionary] {
        [
            ["date": Date(timeIntervalSinceReferenceDate: 1)] as NSDictionary,
            ["list": [Data([1])]] as NSDictionary,
            ["nested": ["a": "b"]] as NSDictionary,
            ["null": NSNull()] as NSDictionary,
            ["mutable": NSMutableString(string: "text")] as NSDictionary,
            ["mutable": NSMutableData(data: Data([9]))] as NSDictionary,
            [5: "number key"] as NSDictionary,
            ["class": "genp", "uuid": UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!] as NSDictionary,
            [kSecAttrAccessControl: SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [], nil)!] as NSDictionary,
        ]
    }

    @Test func otherDictionariesAreLeftToTheGeneralReading() {
        for dictionary in Self.otherDictionaries() {
            #expect(PlainDictionaryReader.query(dictionary) == nil, "\(dictionary)")
            #expect(ValueBridge.query(dictionary) == ValueBridge.generalQuery(dictionary), "\(dictionary)")
        }
    }

    @Test func aPlainDictionaryHasNoSpecialKeys() {
        let query: QueryDictionary = ["class": "genp", "svce": "bench", "acct": "a", "r_Data": true, "m_Limit": "m_LimitOne", "srvr": "x"]
        #expect(SpecialKeys(of: query).isEmpty)
        #expect(SpecialKeys(of: [:]).isEmpty)
    }

    @Test func eachSpecialKeyTurnsItsPassOn() {
        let expected: [(String, SpecialKeys)] = [
            (QueryKey.valueRef, .all), (CertificateItem.issuer, .issuer), (QueryKey.returnRef, .returnRef),
            (QueryKey.matchIssuers, .certificateMatch), (QueryKey.matchPolicy, .certificateMatch),
            (QueryKey.matchValidOnDate, .certificateMatch), (QueryKey.matchTrustedOnly, .certificateMatch),
            (QueryKey.useAuthenticationContext, .keyAuthentication), (QueryKey.useOperationPrompt, .keyAuthentication),
            (QueryKey.useAuthenticationUI, .keyAuthentication), (QueryKey.useNoAuthenticationUI, .keyAuthentication),
        ]
        for (key, passes) in expected {
            #expect(SpecialKeys(of: ["class": "genp", .string(key): true]) == passes, "\(key)")
        }
        for key in MacOSShim.keysWorthALook {
            #expect(SpecialKeys(of: ["class": "genp", .string(key): true]).contains(.macOS), "\(key)")
        }
    }

    /// The common keys are told apart from the special ones without a look-up.
    @Test func commonKeysNeedNoLookUp() {
        for key in ["class", "svce", "acct", "r_Data", "r_Attributes", "m_Limit", "agrp", "labl", "srvr", "v_Data", "sync", "desc"] {
            #expect(!SpecialKeys.mayBeSpecial(key), "\(key)")
        }
    }

    @Test func aKeyThatIsNoStringTurnsEveryPassOn() {
        #expect(SpecialKeys(of: ["class": "genp", 5: "five"]) == .all)
    }
}
