import KeychainModel
import Testing

/// ``Hexadecimal``: two digits per byte, in the case asked for, and back from either case; anything else spells
/// no bytes.
@Suite("KeychainModel: hexadecimal text", .timeLimit(.minutes(10)))
struct HexadecimalTests {
    @Test func writesTwoDigitsPerByte() {
        #expect(Hexadecimal.text([0x00, 0x0F, 0xA5, 0xFF]) == "000fa5ff")
        #expect(Hexadecimal.text([0x00, 0x0F, 0xA5, 0xFF], uppercase: true) == "000FA5FF")
        #expect(Hexadecimal.text([0x02, 0x01, 0x7F], separator: " ") == "02 01 7f")
        #expect(Hexadecimal.text([]) == "")
        #expect(Hexadecimal.text([0xAB], separator: ":") == "ab")
    }

    @Test func readsEitherCase() {
        #expect(Hexadecimal.bytes("000fa5ff") == [0x00, 0x0F, 0xA5, 0xFF])
        #expect(Hexadecimal.bytes("000FA5Ff") == [0x00, 0x0F, 0xA5, 0xFF])
        let all = (0...255).map(UInt8.init)
        #expect(Hexadecimal.bytes(Hexadecimal.text(all)) == all)
        #expect(Hexadecimal.bytes(Hexadecimal.text(all, uppercase: true)) == all)
    }

    @Test(arguments: ["", "0", "abc", "0g", "g0", " 00", "00 ", "0x00", "é0"])
    func spellsNoBytesWhenNotHexadecimal(_ text: String) {
        #expect(Hexadecimal.bytes(text) == nil)
    }
}
