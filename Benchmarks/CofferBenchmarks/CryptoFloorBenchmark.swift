import Crypto
import Foundation

/// The cryptography every find of one item with its data must do, each step timed alone through
/// swift-crypto's public API with inputs of a find's sizes: the floor a find cannot go below on top of
/// SQLite's own lookup, whatever the rest of the code does.
enum CryptoFloorBenchmark {
    /// How many blind indexes a find of a generic password computes: service, account and the
    /// synchronizable filter.
    static let blindIndexesPerFind = 3

    static func run(quick: Bool) throws -> [Measurement] {
        let rounds = quick ? 3 : 15
        let operations = 20_000
        let indexKey = SymmetricKey(size: .bits256)
        var keyed = HMAC<SHA256>(key: indexKey)
        keyed.update(data: Array("coffer.index\u{0}\u{1}genp".utf8))
        let indexMessage = [UInt8](repeating: 0x61, count: 24)
        let rowMessage = [UInt8](repeating: 0x62, count: 420)

        let metadataKey = SymmetricKey(size: .bits256)
        let aad = [UInt8](repeating: 0x63, count: 34)
        let attributes = try AES.GCM.seal([UInt8](repeating: 0x64, count: 128), using: metadataKey, authenticating: aad)
        let classKey = SymmetricKey(size: .bits256)
        let itemKey = SymmetricKey(size: .bits256)
        let wrapped = try AES.KeyWrap.wrap(itemKey, using: classKey)
        let secret = try AES.GCM.seal([UInt8](repeating: 0x65, count: 32), using: itemKey, authenticating: aad)
        let attributesBlob = attributes.combined!
        let secretBlob = secret.combined!

        return [
            Measurement.run("blind index: HMAC-SHA256 from a keyed state, 24-byte message", rounds: rounds, operations: operations) {
                var mac = keyed
                mac.update(data: indexMessage)
                _ = mac.finalize()
            },
            Measurement.run("row tag: HMAC-SHA256 from a keyed state, 420-byte row", rounds: rounds, operations: operations) {
                var mac = keyed
                mac.update(data: rowMessage)
                _ = mac.finalize()
            },
            try Measurement.run("open the attributes: AES-256-GCM, 128 bytes", rounds: rounds, operations: operations) {
                _ = try AES.GCM.open(AES.GCM.SealedBox(combined: attributesBlob), using: metadataKey, authenticating: aad)
            },
            try Measurement.run("unwrap the item key: AES key wrap", rounds: rounds, operations: operations) {
                _ = try AES.KeyWrap.unwrap(wrapped, using: classKey)
            },
            try Measurement.run("open the secret: AES-256-GCM, 32 bytes", rounds: rounds, operations: operations) {
                _ = try AES.GCM.open(AES.GCM.SealedBox(combined: secretBlob), using: itemKey, authenticating: aad)
            },
        ]
    }

    /// The floor of one find: every step once, the blind index ``blindIndexesPerFind`` times.
    static func findFloor(_ steps: [Measurement]) -> Duration {
        steps.enumerated().reduce(.zero) { total, step in
            total + step.element.median * (step.offset == 0 ? blindIndexesPerFind : 1)
        }
    }
}
