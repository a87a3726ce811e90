import Crypto
import Foundation
import KeychainModel
import Testing

@testable import ItemStore

/// ``HMACStart`` is HMAC-SHA256: RFC 4231's vectors, and the same MACs as swift-crypto's `HMAC`, which wrote
/// the blind indexes and row tags of every keychain made before it (they must still match).
@Suite("ItemStore: HMAC from prepared states", .timeLimit(.minutes(10)))
struct HMACStartTests {
    private func hex(_ text: String) -> [UInt8] { Hexadecimal.bytes(text) ?? [] }

    private func mac(_ start: HMACStart, _ message: [UInt8]) -> [UInt8] {
        message.withUnsafeBytes { start.withMAC(of: $0) { Array($0) } }
    }

    /// RFC 4231 §4.2, §4.3, §4.4, §4.7 (a key longer than the block, hashed first) and §4.8.
    @Test(arguments: [
        (
            "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "4869205468657265",
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            "4a656665", "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            String(repeating: "dd", count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            String(repeating: "aa", count: 131),
            "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374",
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        (
            String(repeating: "aa", count: 131),
            "5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d414320616c676f726974686d2e",
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
    ])
    func rfc4231(key: String, message: String, expected: String) {
        let start = HMACStart(key: SymmetricKey(data: hex(key)), prefix: [])
        #expect(mac(start, hex(message)) == hex(expected))
        // The same message split between the prefix and the MAC's own part gives the same MAC.
        let bytes = hex(message)
        let split = HMACStart(key: SymmetricKey(data: hex(key)), prefix: Array(bytes.prefix(3)))
        #expect(mac(split, Array(bytes.dropFirst(3))) == hex(expected))
    }

    /// Against swift-crypto for random keys, prefixes and messages of every length around the block size,
    /// the empty message included; one start shared by concurrent tasks gives the same MACs.
    @Test func sameAsSwiftCrypto() async {
        for length in [0, 1, 31, 32, 55, 56, 63, 64, 65, 119, 120, 128, 1000] {
            let key = SymmetricKey(size: .bits256)
            let prefix = (0..<(length % 23)).map { _ in UInt8.random(in: 0...255) }
            let message = (0..<length).map { _ in UInt8.random(in: 0...255) }
            var reference = HMAC<SHA256>(key: key)
            reference.update(data: prefix + message)
            #expect(mac(HMACStart(key: key, prefix: prefix), message) == Array(reference.finalize()))
        }
        let key = SymmetricKey(size: .bits256)
        let start = HMACStart(key: key, prefix: Array("shared".utf8))
        let messages = (0..<64).map { index in Array("message \(index)".utf8) }
        let macs = await withTaskGroup(of: (Int, [UInt8]).self) { group in
            for (index, message) in messages.enumerated() {
                group.addTask { (index, message.withUnsafeBytes { start.withMAC(of: $0) { Array($0) } }) }
            }
            var macs: [Int: [UInt8]] = [:]
            for await (index, mac) in group { macs[index] = mac }
            return macs
        }
        for (index, message) in messages.enumerated() {
            #expect(macs[index] == Array(HMAC<SHA256>.authenticationCode(for: Array("shared".utf8) + message, using: key)))
        }
    }

    /// The indexer's blind index, uniqueness digest and row tag are the documented HMACs (see ``ItemCrypto``),
    /// byte for byte as swift-crypto computes them: keychains written before keep matching.
    @Test func indexerKeepsTheFormat() {
        let key = SymmetricKey(size: .bits256)
        let indexer = ItemCrypto.Indexer(indexKey: key, itemClass: .genericPassword)
        func header(_ domain: String) -> [UInt8] { Array(domain.utf8) + [0, ItemCrypto.formatVersion] + Array("genp".utf8) }
        func lp(_ bytes: [UInt8]) -> [UInt8] {
            let count = UInt32(bytes.count)
            return [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)] + bytes
        }
        let value = Array("alice".utf8)
        let index = HMAC<SHA256>.authenticationCode(for: header("coffer.index") + lp(Array("acct".utf8)) + lp(value), using: key)
        #expect(indexer.index(code: "acct", value: Data(value)) == Data(Array(index).prefix(ItemCrypto.indexLength)))
        let unique = HMAC<SHA256>.authenticationCode(for: header("coffer.ukey") + lp(value), using: key)
        #expect(indexer.uniqueDigest(Data(value)) == Data(unique))

        var message = RowTagMessage(capacity: 64)
        message.start(protection: .whenUnlocked)
        [UInt8](repeating: 7, count: 16).withUnsafeBytes { message.appendPart($0) }
        value.withUnsafeBytes { message.appendIndex(code: RowTagMessage.lengthPrefixed("acct"), value: $0) }
        let tag = HMAC<SHA256>.authenticationCode(for: header("coffer.row") + message.bytes, using: key)
        #expect(indexer.rowTag(of: message) == Data(tag))
        #expect(Data(tag).withUnsafeBytes { indexer.isTag($0, of: message) })
        var flipped = Array(tag)
        flipped[31] ^= 1
        #expect(!flipped.withUnsafeBytes { indexer.isTag($0, of: message) })
        #expect(!Array(tag).prefix(16).withUnsafeBytes { indexer.isTag($0, of: message) })
    }
}
