import Foundation
import KeychainModel
import Testing
@testable import Query

@Suite("AttributeSet and its encoding (§10.10)", .timeLimit(.minutes(10)))
struct AttributeSetTests {
    private let sample = AttributeSet([
        ("acct", .string("alice")), ("gena", .data(Data([0, 1, 2]))), ("port", .number(-443)),
        ("cdat", .date(Date(timeIntervalSinceReferenceDate: 123.456))), ("accc", .accessControl(biometricControl)),
        ("ptcl", .string("htps")), ("labl", .string("")), ("svce", .string("ünïcødé ✓")),
    ])

    @Test func keepsInsertionOrderAndReplacesInPlace() {
        var set = AttributeSet([("b", .number(1)), ("a", .number(2))])
        set["b"] = .number(3)
        set["c"] = .number(4)
        #expect(set.codes == ["b", "a", "c"])
        set["a"] = nil
        #expect(set.codes == ["b", "c"])
        #expect(set.removeValue(forCode: "b") == .number(3))
        #expect(set.count == 1)
    }

    @Test func encodingRoundTripsEveryValueExactly() throws {
        let decoded = try AttributeSet(decoding: sample.encoded())
        #expect(decoded == sample)
        #expect(decoded.codes == sample.codes)
        #expect(decoded["acct"] == .string("alice"))  // a blob string stays a string
        #expect(decoded["gena"] == .data(Data([0, 1, 2])))
    }

    @Test func emptySetRoundTrips() throws {
        #expect(try AttributeSet(decoding: AttributeSet().encoded()).isEmpty)
    }

    @Test func truncatedOrTrailingBytesFailToDecode() {
        let bytes = sample.encoded()
        for length in [0, 1, 5, bytes.count / 2, bytes.count - 1] {
            #expect(throws: KeychainStatus.decode) { try AttributeSet(decoding: bytes.prefix(length)) }
        }
        #expect(throws: KeychainStatus.decode) { try AttributeSet(decoding: bytes + Data([0])) }
        var wrongVersion = bytes
        wrongVersion[0] = 9
        #expect(throws: KeychainStatus.decode) { try AttributeSet(decoding: wrongVersion) }
    }

    @Test func repeatedCodeFailsToDecode() {
        var writer = BinaryWriter()
        writer.byte(1)
        writer.uint32(2)
        for _ in 0..<2 {
            writer.text16("acct")
            writer.byte(3)
            writer.uint64(1)
        }
        #expect(throws: KeychainStatus.decode) { try AttributeSet(decoding: writer.output) }
    }
}
