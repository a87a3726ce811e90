import BackupFormat
import KeychainModel
import Testing

/// The printed recovery key: round trip, typing mistakes, length and alphabet.
@Suite(.timeLimit(.minutes(10))) struct RecoveryKeyTests {
    @Test func printedFormRoundTrips() throws {
        let key = RecoveryKey.generate()
        let printed = key.formatted()
        #expect(printed.count == 69)
        let text = printed.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        #expect(text.split(separator: "-").count == 14)
        #expect(text.split(separator: "-").allSatisfy { $0.count == 4 })
        let parsed = try RecoveryKey.parse(SecretBytes(copying: Array(text.lowercased().replacingOccurrences(of: "-", with: " ").utf8)))
        #expect(parsed.key == key.key)
    }

    @Test func mistypedKeysAreRefused() throws {
        let text = RecoveryKey.generate().formatted().withUnsafeBytes { Array($0) }
        var mistyped = text
        mistyped[0] = mistyped[0] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(throws: RecoveryKeyError.checksumMismatch) { try RecoveryKey.parse(SecretBytes(copying: mistyped)) }
        #expect(throws: RecoveryKeyError.wrongLength) { try RecoveryKey.parse(SecretBytes(copying: text.dropLast())) }
        var invalid = text
        invalid[1] = UInt8(ascii: "1")
        #expect(throws: RecoveryKeyError.invalidCharacter) { try RecoveryKey.parse(SecretBytes(copying: invalid)) }
    }
}
