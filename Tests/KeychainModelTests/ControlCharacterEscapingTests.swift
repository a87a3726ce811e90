import KeychainModel
import Testing

@Suite(.timeLimit(.minutes(10))) struct ControlCharacterEscapingTests {
    @Test func plainTextIsUnchanged() {
        #expect(ControlCharacterEscaping.escaped("/usr/bin/firefox (pid 42)") == "/usr/bin/firefox (pid 42)")
        #expect(ControlCharacterEscaping.escaped("Ünïcødé ✓ 鍵") == "Ünïcødé ✓ 鍵")
        #expect(!ControlCharacterEscaping.containsControlCharacters("tab-free text"))
    }

    @Test func newLinesAndTabsBecomeTheirEscapes() {
        let spoof = "/tmp/x\nFirefox Sync needs your keychain passcode… (verified)"
        let shown = ControlCharacterEscaping.escaped(spoof)
        #expect(shown == "/tmp/x\\nFirefox Sync needs your keychain passcode… (verified)")
        #expect(!shown.contains("\n"))
        #expect(ControlCharacterEscaping.escaped("a\tb\rc") == "a\\tb\\rc")
    }

    @Test func terminalEscapesAndOtherControlsAreHexadecimal() {
        #expect(ControlCharacterEscaping.escaped("\u{1B}[2Jtitle") == "\\x1B[2Jtitle")
        #expect(ControlCharacterEscaping.escaped("\u{7F}\u{0}\u{9B}") == "\\x7F\\x00\\x9B")
        #expect(ControlCharacterEscaping.containsControlCharacters("bell\u{7}"))
    }

    @Test func formatCharactersThatReorderTextAreEscaped() {
        #expect(ControlCharacterEscaping.escaped("safe\u{202E}exe.txt") == "safe\\u{202E}exe.txt")
        #expect(ControlCharacterEscaping.escaped("a\u{200B}b\u{2028}c") == "a\\u{200B}b\\u{2028}c")
    }

    @Test func aBackslashIsDoubledInTextThatIsEscaped() {
        #expect(ControlCharacterEscaping.escaped("C:\\new") == "C:\\new")
        #expect(ControlCharacterEscaping.escaped("C:\\n\n") == "C:\\\\n\\n")
    }
}
