import Foundation
import KeychainModel
import Testing
@testable import Query

@Suite("Value coercion (§1.2, G5)", .timeLimit(.minutes(10)))
struct AttributeValueCoercionTests {
    @Test func blobKeepsStringDataAndNumbersAsGiven() throws {
        #expect(try AttributeValue.coerce("abc", to: .blob) == .string("abc"))
        #expect(try AttributeValue.coerce(.data(Data("abc".utf8)), to: .blob) == .data(Data("abc".utf8)))
        #expect(try AttributeValue.coerce(5, to: .blob) == .number(5))
    }

    @Test func dataKindConvertsStringsAndNumbers() throws {
        #expect(try AttributeValue.coerce("abc", to: .data) == .data(Data("abc".utf8)))
        #expect(try AttributeValue.coerce(5, to: .data) == .data(Data([5, 0, 0, 0])))
        #expect(try AttributeValue.coerce(-1, to: .data) == .data(Data([0xFF, 0xFF, 0xFF, 0xFF])))
    }

    @Test func stringKindDecodesDataAndUUIDs() throws {
        let uuid = UUID()
        #expect(try AttributeValue.coerce(.data(Data("grp".utf8)), to: .string) == .string("grp"))
        #expect(try AttributeValue.coerce(.uuid(uuid), to: .string) == .string(uuid.uuidString))
        #expect(throws: KeychainStatus.param) { try statusOf(AttributeValue.coerce(.data(Data([0xFF, 0xFE])), to: .string)) }
        #expect(throws: KeychainStatus.param) { try statusOf(AttributeValue.coerce(5, to: .string)) }
    }

    @Test func numberKindTurnsBooleansAndDecimalStringsIntoNumbers() throws {
        #expect(try AttributeValue.coerce(true, to: .number) == .number(1))
        #expect(try AttributeValue.coerce(false, to: .number) == .number(0))
        #expect(try AttributeValue.coerce("443", to: .number) == .number(443))
        #expect(try AttributeValue.coerce("-7", to: .number) == .number(-7))
        #expect(try AttributeValue.coerce(.double(80.9), to: .number) == .number(80))
    }

    @Test(arguments: ["htps", "0443", "+443", " 443", "2147483678", ""])
    func numberKindKeepsOtherStringsAsText(text: String) throws {
        #expect(try AttributeValue.coerce(.string(text), to: .number) == .string(text))
    }

    @Test func dateKindAcceptsOnlyDates() throws {
        let date = Date(timeIntervalSinceReferenceDate: 42)
        #expect(try AttributeValue.coerce(.date(date), to: .date) == .date(date))
        #expect(throws: KeychainStatus.param) { try statusOf(AttributeValue.coerce("2020-01-01", to: .date)) }
    }

    @Test func uuidKindAcceptsSixteenOrZeroBytesNullAndUUIDs() throws {
        #expect(try AttributeValue.coerce(.null, to: .uuid) == .data(Data()))
        #expect(try AttributeValue.coerce(.data(Data(count: 16)), to: .uuid) == .data(Data(count: 16)))
        #expect(throws: KeychainStatus.param) { try statusOf(AttributeValue.coerce(.data(Data(count: 3)), to: .uuid)) }
        let uuid = UUID()
        let coerced = try AttributeValue.coerce(.uuid(uuid), to: .uuid)
        #expect(coerced == .data(withUnsafeBytes(of: uuid.uuid) { Data($0) }))
    }

    @Test func sha1KindNeedsTwentyBytes() throws {
        #expect(try AttributeValue.coerce(.data(Data(count: 20)), to: .sha1) == .data(Data(count: 20)))
        #expect(throws: KeychainStatus.param) { try statusOf(AttributeValue.coerce(.data(Data(count: 19)), to: .sha1)) }
    }

    /// G5: a CFDate for `acct`, an array anywhere, CFNull, a boolean in a Blob.
    @Test(arguments: [
        (KeychainValue.date(Date()), AttributeKind.blob), (.array(["a"]), .blob), (.null, .blob), (true, .blob),
        (.null, .string), (.array([]), .number), (.dictionary([:]), .data), (.unsupported(typeName: "X"), .number),
        (.double(.nan), .number), ("ak", .accessControl),
    ])
    func unconvertibleValuesAreParamErrors(value: KeychainValue, kind: AttributeKind) {
        #expect(throws: KeychainStatus.param) { try statusOf(AttributeValue.coerce(value, to: kind)) }
    }

    /// G5 through the parser.
    @Test func parserRejectsUnconvertibleAttributeValue() {
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseAdd(genp(["acct": .date(Date())]))) }
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(genp(["svce": ["a", "b"]]))) }
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseDelete(genp(["labl": .null]))) }
    }
}
