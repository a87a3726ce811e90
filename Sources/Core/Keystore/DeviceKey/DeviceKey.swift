import Crypto
import Foundation
import KeychainModel

/// The device key: 256 random bits made with the keychain, the analog of the Secure Enclave's UID.
///
/// Stored in its own file (0600) as `CFDK` ‖ version ‖ 32 key bytes ‖ the first 16 bytes of
/// SHA-256 over what precedes, so damage is detected on load. Every other key either is wrapped
/// under a key derived from this one or is derived from it.
struct DeviceKey: Sendable {
    private static let magic: [UInt8] = Array("CFDK".utf8)
    private static let version: UInt8 = 1
    private static let keyLength = 32
    private static let checksumLength = 16
    static let fileLength = magic.count + 1 + keyLength + checksumLength

    private let locked: LockedKey

    /// The key, for one use (its bytes are kept locked in memory; see ``LockedKey``).
    var key: SymmetricKey { locked.key }

    /// Whether the key's bytes are locked in memory.
    var isLockedInMemory: Bool { locked.isLockedInMemory }

    private init(key: SymmetricKey) { locked = LockedKey(key) }

    private init(bytes: UnsafeRawBufferPointer) { locked = LockedKey(bytes: bytes) }

    /// A new random device key, in memory only.
    static func generate() -> DeviceKey { DeviceKey(key: SymmetricKey(size: .bits256)) }

    /// The device key made of these 32 bytes (unsealed by a TPM, or opened with the recovery key).
    static func fromBytes(_ bytes: SecretBytes) throws(KeystoreError) -> DeviceKey {
        guard bytes.count == keyLength else { throw .deviceKeyDamaged(reason: "it has \(bytes.count) bytes instead of \(keyLength)") }
        return bytes.withUnsafeBytes { DeviceKey(bytes: $0) }
    }

    /// The key's bytes, to be sealed or escrowed.
    var bytes: SecretBytes { key.withUnsafeBytes { SecretBytes(copying: $0) } }

    /// Makes a new random device key and writes it to `url`.
    static func create(at url: URL) throws(KeystoreError) -> DeviceKey {
        let key = generate()
        try key.write(to: url)
        return key
    }

    /// Writes this key to `url` in the file format above.
    func write(to url: URL) throws(KeystoreError) {
        let key = self.key
        var failure: KeystoreError?
        let file = SecretBytes(capacity: Self.fileLength) { buffer in
            var offset = 0
            for byte in Self.magic { buffer[offset] = byte; offset += 1 }
            buffer[offset] = Self.version; offset += 1
            key.withUnsafeBytes { keyBytes in
                for byte in keyBytes { buffer[offset] = byte; offset += 1 }
            }
            let digest = SHA256.hash(data: UnsafeRawBufferPointer(rebasing: buffer[0..<offset]))
            for byte in digest.prefix(Self.checksumLength) { buffer[offset] = byte; offset += 1 }
            return offset
        }
        file.withUnsafeBytes { bytes in
            do throws(KeystoreError) { try SecureFile.writeAtomically(bytes, to: url) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Loads the device key from `url`; nil when the file does not exist.
    static func load(from url: URL) throws(KeystoreError) -> DeviceKey? {
        guard let file = try SecureFile.read(url, limit: 4096) else { return nil }
        return try file.withUnsafeBytes { bytes throws(KeystoreError) -> DeviceKey in
            guard bytes.count == fileLength else {
                throw .deviceKeyDamaged(reason: "it has \(bytes.count) bytes instead of \(fileLength)")
            }
            guard bytes.prefix(magic.count).elementsEqual(magic), bytes[magic.count] == version else {
                throw .deviceKeyDamaged(reason: "unknown format")
            }
            let body = UnsafeRawBufferPointer(rebasing: bytes[0..<(magic.count + 1 + keyLength)])
            let digest = SHA256.hash(data: body)
            guard digest.prefix(checksumLength).elementsEqual(bytes.suffix(checksumLength)) else {
                throw .deviceKeyDamaged(reason: "checksum mismatch")
            }
            let keyBytes = UnsafeRawBufferPointer(rebasing: bytes[(magic.count + 1)..<(magic.count + 1 + keyLength)])
            return DeviceKey(bytes: keyBytes)
        }
    }

    /// A key derived from the device key for one purpose (domain separation by `label`).
    func derivedKey(_ label: String, salt: SymmetricKey? = nil) -> SymmetricKey {
        let key = self.key
        if let salt {
            return salt.withUnsafeBytes { saltBytes in
                HKDF<SHA256>.deriveKey(inputKeyMaterial: key, salt: saltBytes, info: Data(label.utf8), outputByteCount: 32)
            }
        }
        return HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Data(label.utf8), outputByteCount: 32)
    }
}
