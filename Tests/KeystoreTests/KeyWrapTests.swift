import Crypto
import Foundation
import KeychainModel
import Testing

@testable import Keystore

/// ``KeyWrap`` is RFC 3394: its published vector, what swift-crypto wraps, and a refusal, never a key, for
/// any changed byte or a wrong length.
@Suite("Keystore: AES key unwrap", .timeLimit(.minutes(10)))
struct KeyWrapTests {
    private func hex(_ text: String) -> Data { Data(Hexadecimal.bytes(text) ?? []) }

    /// RFC 3394 §4.6: 256 bits of key data with a 256-bit KEK.
    @Test func rfc3394Vector() throws {
        let kek = SymmetricKey(data: hex("000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"))
        let wrapped = hex("28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD21")
        let key = try KeyWrap.unwrap(wrapped, with: kek)
        #expect(key.withUnsafeBytes { Data($0) } == hex("00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F"))
        #expect(try KeyWrap.wrap(key, with: kek) == wrapped)
    }

    @Test func unwrapsWhatIsWrapped() throws {
        for size in [SymmetricKeySize.bits128, .bits256] {
            let kek = SymmetricKey(size: .bits256)
            let key = SymmetricKey(size: size)
            let wrapped = try AES.KeyWrap.wrap(key, using: kek)
            #expect(try KeyWrap.unwrap(wrapped, with: kek) == key)
        }
    }

    @Test func refusesChangesAndWrongLengths() throws {
        let kek = SymmetricKey(size: .bits256)
        let wrapped = try AES.KeyWrap.wrap(SymmetricKey(size: .bits256), using: kek)
        for index in wrapped.indices {
            var changed = wrapped
            changed[index] ^= 0x80
            #expect(throws: KeystoreError.wrappedKeyCorrupt) { try KeyWrap.unwrap(changed, with: kek) }
        }
        #expect(throws: KeystoreError.wrappedKeyCorrupt) { try KeyWrap.unwrap(wrapped, with: SymmetricKey(size: .bits256)) }
        for bad in [Data(), wrapped.prefix(16), wrapped.dropLast(), wrapped + Data([0])] {
            #expect(throws: KeystoreError.wrappedKeyCorrupt) { try KeyWrap.unwrap(bad, with: kek) }
        }
    }
}
