import Foundation
import KeychainModel
import Testing
@testable import Query

/// Apple's DER property-list encoding (reference §5.7; OSX/utilities/der_plist.c, der_number.c, der_date.c,
/// der_dictionary.c), byte for byte.
@Suite("DER property list (§5.7)", .timeLimit(.minutes(10)))
struct DERPropertyListTests {
    private func hex(_ value: DERPropertyList) -> String {
        Hexadecimal.text(value.encoded, separator: " ")
    }

    private func timeBody(_ absoluteTime: Double) -> String {
        String(decoding: DERGeneralizedTime.body(of: absoluteTime), as: UTF8.self)
    }

    @Test func integersTakeTheirShortestTwosComplementForm() {
        #expect(hex(.integer(0)) == "02 01 00")
        #expect(hex(.integer(127)) == "02 01 7f")
        #expect(hex(.integer(128)) == "02 02 00 80")
        #expect(hex(.integer(255)) == "02 02 00 ff")
        #expect(hex(.integer(256)) == "02 02 01 00")
        #expect(hex(.integer(-1)) == "02 01 ff")
        #expect(hex(.integer(-128)) == "02 01 80")
        #expect(hex(.integer(-129)) == "02 02 ff 7f")
        #expect(hex(.integer(0x0080_0000_0000_0000)) == "02 08 00 80 00 00 00 00 00 00")
        #expect(hex(.integer(.max)) == "02 08 7f ff ff ff ff ff ff ff")
        #expect(hex(.integer(.min)) == "02 08 80 00 00 00 00 00 00 00")
    }

    @Test func scalarsHaveTheirTags() {
        #expect(hex(.string("ak")) == "0c 02 61 6b")
        #expect(hex(.string("é")) == "0c 02 c3 a9")
        #expect(hex(.data(Data([0, 0xFF]))) == "04 02 00 ff")
        #expect(hex(.data(Data())) == "04 00")
        #expect(hex(.boolean(true)) == "01 01 01")  // Apple writes the C value 1, not DER's 0xFF
        #expect(hex(.boolean(false)) == "01 01 00")
        #expect(hex(.null) == "05 00")
        #expect(hex(.array([.integer(1), .string("a")])) == "30 06 02 01 01 0c 01 61")
        #expect(hex(.date(0)) == "18 0f 32 30 30 31 30 31 30 31 30 30 30 30 30 30 5a")
    }

    @Test func longContentGetsALongFormLength() {
        #expect(DERPropertyList.data(Data(count: 127)).encoded.prefix(2) == Data([0x04, 0x7F]))
        #expect(DERPropertyList.data(Data(count: 128)).encoded.prefix(3) == Data([0x04, 0x81, 0x80]))
        #expect(DERPropertyList.data(Data(count: 255)).encoded.prefix(3) == Data([0x04, 0x81, 0xFF]))
        #expect(DERPropertyList.data(Data(count: 256)).encoded.prefix(4) == Data([0x04, 0x82, 0x01, 0x00]))
        #expect(DERPropertyList.data(Data(count: 70_000)).encoded.prefix(5) == Data([0x04, 0x83, 0x01, 0x11, 0x70]))
    }

    /// The pairs are sorted by their encoded bytes, so the length byte of each SEQUENCE decides first: a short
    /// pair sorts before a longer one whatever the keys.
    @Test func dictionaryPairsAreSortedByTheirEncodedBytes() {
        let dictionary = DERPropertyList.dictionary(["zz": .integer(1), "b": .string("long value"), "a": .integer(2)])
        #expect(
            hex(dictionary) == "31 22 "
                + "30 06 0c 01 61 02 01 02 "  // a = 2 (8 bytes)
                + "30 07 0c 02 7a 7a 02 01 01 "  // zz = 1 (9 bytes)
                + "30 0f 0c 01 62 0c 0a 6c 6f 6e 67 20 76 61 6c 75 65")  // b = "long value" (17 bytes)
        #expect(hex(.dictionary([:])) == "31 00")
    }

    @Test func wholeSecondsHaveNoFraction() {
        #expect(timeBody(0) == "20010101000000Z")
        #expect(timeBody(750_000_000) == "20241007132000Z")
        #expect(timeBody(-31_622_400) == "20000101000000Z")
    }

    /// The fraction is the shortest decimal that reads back as the same double, after the point.
    @Test func fractionsAreTheShortestRoundTripDigits() {
        #expect(timeBody(1.5) == "20010101000001.5Z")
        #expect(timeBody(750_000_000.125) == "20241007132000.125Z")
        #expect(timeBody(797_000_000.123456) == "20260404125320.123456Z")
        #expect(timeBody(0.05) == "20010101000000.05Z")
        #expect(timeBody(0.00001) == "20010101000000.00001Z")
    }

    /// Before 2001 the fields are those of the second before, and the fraction counts up from it.
    @Test func negativeTimesCountFromTheSecondBefore() {
        #expect(timeBody(-0.25) == "20001231235959.75Z")
        #expect(timeBody(-1.25) == "20001231235958.75Z")
        #expect(timeBody(-0.05) == "20001231235959.95Z")
        #expect(timeBody(-0.5) == "20001231235959.5Z")
    }

    /// The calendar arithmetic that writes the date gives the Gregorian calendar's answer on every day it is
    /// used for (1583 to 9999), checked against Foundation's calendar on days spread over that span.
    @Test func theDateArithmeticAgreesWithTheGregorianCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        var generator = SystemRandomNumberGenerator()
        let edges = [-141_349, -141_348, -1, 0, 1, 10_957, 11_016, 11_017, 2_932_895, 2_932_896]
        for days in edges + (0..<2_000).map({ _ in Int.random(in: -141_349...2_932_896, using: &generator) }) {
            let components = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))
            let civil = DERGeneralizedTime.civilDate(daysSince1970: days)
            #expect(civil.year == components.year && civil.month == components.month && civil.day == components.day, "day \(days)")
        }
        // Outside that span the calendar itself decides: a Julian date before 1583 (1557-05-11 proleptic Gregorian).
        #expect(timeBody(-14_000_000_000) == "15570501230640Z")
    }
}
