import Crypto
import Foundation
import KeyCrypto
import KeychainModel
import KeychainOperations
import Keystore
import Query

/// How a token key's private scalar is kept outside the keystore: sealed (AES-GCM) under a data key that
/// the keystore wraps with the class key of the key's protection, so that only this keychain, with that
/// class unlocked, can open it (the Secure Enclave's "useless on any other device"). The public part
/// (``TokenKeySealLayout``: access control and public key) is the associated data. A key made inside the TPM is
/// sealed the same way, with the TPM's wrapped key in place of the scalar.
enum TokenKeySeal {
    static let scalarLength = 32

    /// What a seal holds: the private key's bytes (X9.63 `04‖X‖Y‖K` for P-256, the 32-byte seed for Ed25519, the
    /// seed for ML-KEM and ML-DSA, zeroized when released), or the TPM's wrapped key.
    enum Secret {
        case privateKey(SecretBytes)
        case tpmKey(Data)
    }

    /// An opened seal: what it holds, the key's kind and its access control.
    struct Opened {
        let secret: Secret
        let publicKey: Data
        let kind: TokenKeyCreation.Kind
        let accessControl: AccessControl
    }

    /// Seals `scalar` (the 32-byte private scalar, an Ed25519 seed, an ML-KEM or ML-DSA seed) with `publicKey` (65
    /// bytes for P-256, 32 for Ed25519, the kind's raw encoding for the others) and `control`; `tiedToItem` for a key
    /// to be stored as a key item.
    static func seal(
        scalar: SecretBytes, publicKey: Data, control: AccessControl, tiedToItem: Bool, keystore: Keystore
    ) throws(KeychainStatus) -> Data {
        try seal(scalar, layout: TokenKeySealLayout(accessControl: control, publicKey: publicKey, tiedToItem: tiedToItem), keystore: keystore)
    }

    /// Seals the TPM's wrapped form of a P-256 key made inside it, with its public key and `control`.
    static func seal(
        tpmKey: Data, publicKey: Data, control: AccessControl, tiedToItem: Bool, keystore: Keystore
    ) throws(KeychainStatus) -> Data {
        try seal(
            SecretBytes(copying: tpmKey),
            layout: TokenKeySealLayout(accessControl: control, publicKey: publicKey, heldByTPM: true, tiedToItem: tiedToItem),
            keystore: keystore)
    }

    private static func seal(_ scalar: SecretBytes, layout: TokenKeySealLayout, keystore: Keystore) throws(KeychainStatus) -> Data {
        let control = layout.accessControl
        let dataKey = SymmetricKey(size: .bits256)
        let wrapped: Data
        do {
            wrapped = try keystore.wrapItemKey(dataKey, protection: control.protection)
        } catch {
            throw error.status
        }
        guard wrapped.count <= UInt8.max else { throw .internal }
        do {
            let box = try scalar.withUnsafeBytes { bytes in
                try AES.GCM.seal(bytes, using: dataKey, authenticating: layout.header)
            }
            var sealed = layout.header
            sealed.append(UInt8(wrapped.count))
            sealed.append(wrapped)
            sealed.append(contentsOf: box.nonce)
            sealed.append(box.ciphertext)
            sealed.append(box.tag)
            return sealed
        } catch {
            throw .internal
        }
    }

    /// Opens a seal made by this keychain. A seal from another keychain, or altered, is -25293 with no more
    /// said (`errSecAuthFailed`); a locked class is -25308.
    static func open(_ sealed: Data, keystore: Keystore) throws(KeychainStatus) -> Opened {
        guard let layout = TokenKeySealLayout(parsing: sealed) else { throw .authFailed }
        let part = [UInt8](layout.sealedPart)
        guard let wrappedLength = part.first.map(Int.init) else { throw .authFailed }
        let sealedLength = part.count - (1 + wrappedLength + 12 + 16)
        guard layout.isHeldByTPM ? sealedLength > 0 : sealedLength == secretLength(of: layout.kind) else { throw .authFailed }
        let wrapped = Data(part[1..<1 + wrappedLength])
        let nonceStart = 1 + wrappedLength
        let dataKey: SymmetricKey
        do {
            dataKey = try keystore.unwrapItemKey(wrapped, protection: layout.accessControl.protection)
        } catch {
            if case .classUnavailable = error { throw .interactionNotAllowed }
            throw .authFailed
        }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: part[nonceStart..<nonceStart + 12]),
                ciphertext: part[nonceStart + 12..<nonceStart + 12 + sealedLength],
                tag: part[(nonceStart + 12 + sealedLength)...])
            var scalar = try AES.GCM.open(box, using: dataKey, authenticating: layout.header)
            defer { scalar.resetBytes(in: 0..<scalar.count) }
            let kind = layout.kind
            if layout.isHeldByTPM {
                return Opened(secret: .tpmKey(scalar), publicKey: layout.publicKey, kind: kind, accessControl: layout.accessControl)
            }
            var privateKey = kind == .p256 ? layout.publicKey : Data()
            privateKey.append(scalar)
            defer { privateKey.resetBytes(in: 0..<privateKey.count) }
            return Opened(
                secret: .privateKey(SecretBytes(copying: privateKey)), publicKey: layout.publicKey, kind: kind, accessControl: layout.accessControl)
        } catch {
            throw .authFailed
        }
    }

    /// The length of what a seal of `kind` holds, for a key the keystore seals.
    static func secretLength(of kind: TokenKeyCreation.Kind) -> Int {
        PostQuantumAlgorithm(standardName: kind.postQuantumName)?.seedLength ?? scalarLength
    }
}
