import CofferTestSupport
import Foundation
import Query
import Testing

@testable import Security

/// The `NSData` results this module hands out (``ResultData``) behave as any `NSData`, and read back as `Data`
/// in one copy.
@Suite(.timeLimit(.minutes(10))) struct ResultDataTests {
    static let samples: [Data] = [Data(), Data("hunter2".utf8), Data((0..<2_048).map { UInt8($0 & 0xFF) })]

    @Test(arguments: samples) func readsBackAsTheBytesItWasMadeOf(bytes: Data) throws {
        let result: CFTypeRef = ResultData(copying: bytes)
        #expect(result as? Data == bytes)
        let object = try #require(result as? NSData)
        #expect(object.length == bytes.count)
        #expect(Data(bytes: object.bytes, count: object.length) == bytes)
        #expect(Data(referencing: object) == bytes)
        #expect(object.subdata(with: NSRange(location: 0, length: min(3, bytes.count))) == bytes.prefix(3))
        #expect(object.base64EncodedString() == bytes.base64EncodedString())
        #expect((object.mutableCopy() as? NSMutableData)?.length == bytes.count)
        #expect((object.copy() as? NSData)?.isEqual(to: bytes) == true)
    }

    @Test(arguments: samples) func isEqualToAPlainNSDataOfTheSameBytes(bytes: Data) {
        let result = ResultData(copying: bytes)
        let plain = NSData(data: bytes)
        #expect(result.isEqual(plain))
        #expect(plain.isEqual(result))
        #expect(result.hash == plain.hash)
        #expect(result.description == plain.description)
        #expect(!result.isEqual(NSData(data: bytes + Data([0]))))
    }

    @Test func archivesAsAPlainNSData() throws {
        let archived = try NSKeyedArchiver.archivedData(withRootObject: ResultData(copying: Data([1, 2, 3])), requiringSecureCoding: true)
        let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: NSData.self, from: archived))
        #expect(type(of: restored) != ResultData.self)
        #expect(restored.isEqual(to: Data([1, 2, 3])))
    }

    /// A result handed back in a query reads as the bytes it holds, the fast way and the general way alike.
    @Test func aResultHandedBackInAQueryIsItsBytes() throws {
        let query: NSDictionary = [kSecClass: kSecClassGenericPassword, kSecValuePersistentRef: ResultData(copying: Data([7, 8, 9]))]
        let plain = try #require(PlainDictionaryReader.query(query))
        #expect(plain == ValueBridge.generalQuery(query))
        #expect(plain[QueryKey.valuePersistentRef] == .data(Data([7, 8, 9])))
    }

    @Test(arguments: Transport.allCases) func secItemCopyMatchingHandsOutResultData(transport: Transport) throws {
        try withFreshKeychain(transport: transport) {
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "results",
                kSecAttrAccount as String: "alice", kSecValueData as String: Data("hunter2".utf8),
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            var item: CFTypeRef?
            let query = [kSecClass: kSecClassGenericPassword, kSecAttrService: "results", kSecReturnData: true] as NSDictionary
            #expect(SecItemCopyMatching(query, &item) == errSecSuccess)
            #expect(item is ResultData)
            #expect(item as? Data == Data("hunter2".utf8))
            var attributes: CFTypeRef?
            let both =
                [kSecClass: kSecClassGenericPassword, kSecAttrService: "results", kSecReturnData: true, kSecReturnAttributes: true]
                as NSDictionary
            #expect(SecItemCopyMatching(both, &attributes) == errSecSuccess)
            let dictionary = try #require(attributes as? [String: Any])
            #expect(dictionary[kSecValueData as String] as? Data == Data("hunter2".utf8))
        }
    }
}
