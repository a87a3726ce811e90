import Crypto
import Foundation

/// The two keys of a keychain's audit journal: one seals each record (AES-256-GCM, whose tags chain the records), one
/// authenticates the segments' headers (HMAC-SHA256).
///
/// The keystore derives both from the device key, so records can be written in every lock state (a lock, a wrong
/// passcode) and read back by whoever holds the device key, never by a program that only reaches the files.
public struct AuditKeys: Sendable {
    let sealing: SymmetricKey
    let chaining: SymmetricKey
    /// HMAC-SHA256 under the second key, keyed once and given each purpose's prefix: each use copies one and goes on
    /// from there, without hashing the key's blocks again.
    let macs: PurposeMACs

    /// The two keys, as the keystore derives them.
    public init(sealing: SymmetricKey, chaining: SymmetricKey) {
        precondition(sealing.bitCount == 256 && chaining.bitCount == 256, "audit keys are 256-bit")
        self.sealing = sealing
        self.chaining = chaining
        macs = PurposeMACs(key: chaining)
    }

    /// Keys from 64 bytes of key material: the first half seals, the second authenticates headers.
    public init(material: some DataProtocol) {
        precondition(material.count == 64, "an audit key is 64 bytes")
        let bytes = Array(material)
        sealing = SymmetricKey(data: bytes[0..<32])
        chaining = SymmetricKey(data: bytes[32..<64])
        macs = PurposeMACs(key: chaining)
    }
}
