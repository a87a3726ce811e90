import Crypto
import Foundation
import Testing

@testable import ItemStore

/// ``GCMOpening`` opens what swift-crypto's AES-GCM seals, and nothing else: every changed byte of the nonce,
/// ciphertext, tag or AAD, a wrong key, or a part too short is refused.
@Suite("ItemStore: opening sealed parts")
struct GCMOpeningTests {
    private let aad = Array("coffer.item test aad".utf8)

    private func sealed(_ plaintext: Data, key: SymmetricKey) throws -> Data {
        try #require(try AES.GCM.seal(plaintext, using: key, authenticating: aad).combined)
    }

    @Test(arguments: [0, 1, 15, 16, 17, 32, 64, 1000])
    func opensWhatSwiftCryptoSeals(length: Int) throws {
        let key = SymmetricKey(size: .bits256)
        let plaintext = Data((0..<length).map { _ in UInt8.random(in: 0...255) })
        let combined = try sealed(plaintext, key: key)
        #expect(GCMOpening.open(combined, key: key, aad: aad) == plaintext)
        // A slice, as the item format hands it (after its version byte).
        let withVersion = Data([1]) + combined
        #expect(GCMOpening.open(withVersion.dropFirst(), key: key, aad: aad) == plaintext)
    }

    @Test func refusesEveryChange() throws {
        let key = SymmetricKey(size: .bits256)
        let combined = try sealed(Data("a secret of some length".utf8), key: key)
        for index in combined.indices {
            var changed = combined
            changed[index] ^= 0x01
            #expect(GCMOpening.open(changed, key: key, aad: aad) == nil, "byte \(index)")
        }
        #expect(GCMOpening.open(combined, key: key, aad: aad + [0]) == nil)
        #expect(GCMOpening.open(combined, key: key, aad: []) == nil)
        #expect(GCMOpening.open(combined, key: SymmetricKey(size: .bits256), aad: aad) == nil)
        #expect(GCMOpening.open(combined.prefix(27), key: key, aad: aad) == nil)
        #expect(GCMOpening.open(combined.dropLast(), key: key, aad: aad) == nil)
        #expect(GCMOpening.open(Data(), key: key, aad: aad) == nil)
    }

    /// Keys of other sizes, which the format does not write, still open through swift-crypto.
    @Test func otherKeySizes() throws {
        let key = SymmetricKey(size: .bits128)
        let combined = try sealed(Data("short key".utf8), key: key)
        #expect(GCMOpening.open(combined, key: key, aad: aad) == Data("short key".utf8))
        #expect(GCMOpening.open(combined, key: SymmetricKey(size: .bits128), aad: aad) == nil)
    }
}
