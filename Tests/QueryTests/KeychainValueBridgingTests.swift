import Foundation
import Testing
@testable import Query

@Suite("KeychainValue bridging", .timeLimit(.minutes(10)))
struct KeychainValueBridgingTests {
    @Test func swiftBoolIsCFBoolean() {
        #expect(KeychainValue(bridging: true) == .bool(true))
        #expect(KeychainValue(bridging: false) == .bool(false))
    }

    @Test func booleanNSNumberIsCFBoolean() {
        #expect(KeychainValue(bridging: NSNumber(value: true)) == .bool(true))
        #expect(KeychainValue(bridging: NSNumber(value: false)) == .bool(false))
    }

    /// Rule G7 depends on this: `@1` is an integer CFNumber, not kCFBooleanTrue.
    @Test func integerNSNumberIsNumber() {
        #expect(KeychainValue(bridging: NSNumber(value: 1)) == .number(1))
        #expect(KeychainValue(bridging: NSNumber(value: Int8(1))) == .number(1))
        #expect(KeychainValue(bridging: NSNumber(value: 0)) == .number(0))
    }

    @Test func swiftIntegersAreNumbers() {
        #expect(KeychainValue(bridging: 1) == .number(1))
        #expect(KeychainValue(bridging: Int32(-5)) == .number(-5))
        #expect(KeychainValue(bridging: UInt16(443)) == .number(443))
        #expect(KeychainValue(bridging: UInt64.max) == .double(Double(UInt64.max)))
    }

    @Test func floatingPointIsDouble() {
        #expect(KeychainValue(bridging: 1.5) == .double(1.5))
        #expect(KeychainValue(bridging: Float(2)) == .double(2))
        #expect(KeychainValue(bridging: NSNumber(value: 2.5)) == .double(2.5))
    }

    @Test func foundationScalars() {
        let date = Date(timeIntervalSinceReferenceDate: 1000)
        let uuid = UUID()
        #expect(KeychainValue(bridging: "text") == .string("text"))
        #expect(KeychainValue(bridging: NSString(string: "ns")) == .string("ns"))
        #expect(KeychainValue(bridging: "abc".dropFirst()) == .string("bc"))
        #expect(KeychainValue(bridging: Data([1, 2])) == .data(Data([1, 2])))
        #expect(KeychainValue(bridging: NSData(bytes: [3, 4] as [UInt8], length: 2)) == .data(Data([3, 4])))
        #expect(KeychainValue(bridging: date) == .date(date))
        #expect(KeychainValue(bridging: NSDate(timeIntervalSinceReferenceDate: 1000)) == .date(date))
        #expect(KeychainValue(bridging: uuid) == .uuid(uuid))
        #expect(KeychainValue(bridging: NSUUID(uuidString: uuid.uuidString)!) == .uuid(uuid))
        #expect(KeychainValue(bridging: NSNull()) == .null)
    }

    /// A byte array is a CFArray of numbers, not CFData.
    @Test func byteArrayIsArrayOfNumbers() {
        #expect(KeychainValue(bridging: [UInt8]([1, 2])) == .array([.number(1), .number(2)]))
    }

    @Test func collectionsAndAccessControl() {
        let dictionary: [String: Any] = ["a": 1, "b": ["x", true]]
        #expect(
            KeychainValue(bridging: dictionary)
                == .dictionary(["a": .number(1), "b": .array([.string("x"), .bool(true)])]))
        #expect(KeychainValue(bridging: biometricControl) == .accessControl(biometricControl))
        #expect(KeychainValue(bridging: [1: "x"] as [Int: String]) == .unsupported(typeName: "Dictionary<Int, String>"))
    }

    @Test func unknownObjectsAreUnsupported() {
        struct Opaque {}
        #expect(KeychainValue(bridging: Opaque()) == .unsupported(typeName: "Opaque"))
    }

    @Test func bridgedResultsCastLikeFoundationObjects() throws {
        let item: KeychainValue = ["v_Data": .data(secret), "acct": "alice", "port": 443, "sync": 0]
        let dictionary = try #require(item.bridged as? [String: Any])
        #expect(dictionary["v_Data"] as? Data == secret)
        #expect(dictionary["acct"] as? String == "alice")
        #expect(dictionary["port"] as? Int == 443)
        #expect((dictionary["port"] as? NSNumber)?.int64Value == 443)
        #expect(item.bridged as? NSDictionary != nil)
        let array = KeychainValue.array([item, item]).bridged
        #expect((array as? [[String: Any]])?.count == 2)
        #expect(KeychainValue.data(secret).bridged as? Data == secret)
        #expect(KeychainValue.bool(true).bridged as? Bool == true)
        #expect(KeychainValue.date(Date(timeIntervalSinceReferenceDate: 5)).bridged as? Date != nil)
        #expect(KeychainValue.accessControl(biometricControl).bridged as? AccessControl == biometricControl)
    }

    @Test func bridgingRoundTrips() {
        let values: [KeychainValue] = [
            "s", .data(secret), 7, .double(1.25), true, false, .date(Date(timeIntervalSinceReferenceDate: 9)),
            .null, .uuid(UUID()), ["a", 1], ["k": true], .accessControl(biometricControl),
        ]
        for value in values {
            #expect(KeychainValue(bridging: value.bridged) == value)
        }
    }

    @Test func queryDictionaryBridgesKeysAndValues() {
        let bridged = QueryDictionary(bridging: ["class": "genp", "r_Data": true, "m_Limit": 5] as [AnyHashable: Any])
        #expect(bridged["class"] == "genp")
        #expect(bridged["r_Data"] == .bool(true))
        #expect(bridged["m_Limit"] == .number(5))
        let fromNS = QueryDictionary(bridging: NSDictionary(dictionary: ["class": "inet", "r_Data": NSNumber(value: 1)]))
        #expect(fromNS["r_Data"] == .number(1))
        let numberKeyed = QueryDictionary(bridging: [NSNumber(value: 3): "x"] as [AnyHashable: Any])
        #expect(numberKeyed.entries[.number(3)] == "x")
    }
}
