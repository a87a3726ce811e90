import BackupFormat
import Crypto
import Foundation
import KeychainModel

/// The device key under the recovery key: AES-256-GCM with a key derived from the recovery key, so a person who
/// kept it opens a keychain whose TPM is gone (cleared, replaced, or the disk moved to another machine).
enum DeviceKeyEscrow {
    private static let label = Data("coffer device key escrow v1".utf8)
    private static let context = Data("CFDT recovery".utf8)

    static func seal(_ deviceKey: DeviceKey, recoveryKey: RecoveryKey) throws(KeystoreError) -> Data {
        do {
            let sealed = try deviceKey.key.withUnsafeBytes { bytes in
                try AES.GCM.seal(bytes, using: key(recoveryKey), authenticating: context)
            }
            guard let combined = sealed.combined else { throw KeystoreError.io(reason: "cannot seal the device key's copy") }
            return combined
        } catch {
            throw .io(reason: "cannot seal the device key's copy under the recovery key")
        }
    }

    /// The device key, or ``KeystoreError/wrongRecoveryKey`` when `recoveryKey` is not this keychain's.
    static func open(_ escrow: Data, recoveryKey: RecoveryKey) throws(KeystoreError) -> DeviceKey {
        let opened: Data
        do {
            opened = try AES.GCM.open(AES.GCM.SealedBox(combined: escrow), using: key(recoveryKey), authenticating: context)
        } catch {
            throw .wrongRecoveryKey
        }
        let bytes = SecretBytes(copying: opened)
        var scratch = opened
        scratch.resetBytes(in: 0..<scratch.count)
        return try DeviceKey.fromBytes(bytes)
    }

    private static func key(_ recoveryKey: RecoveryKey) -> SymmetricKey {
        recoveryKey.key.withUnsafeBytes { bytes in
            HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: bytes), info: label, outputByteCount: 32)
        }
    }
}
