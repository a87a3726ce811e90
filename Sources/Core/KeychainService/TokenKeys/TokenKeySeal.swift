import Crypto
import Foundation
import KeychainModel
import KeychainOperations
import Keystore
import Query

/// How a token key's private scalar is kept outside the keystore: sealed (AES-GCM) under a data key that
/// the keystore wraps with the class key of the key's protection, so that only this keychain, with that
/// class unlocked, can open it (the Secure Enclave's "useless on any other device"). The public part
/// (``TokenKeySealLayout``: access control and public key) is the associated data.
enum TokenKeySeal {
    static let scalarLength = 32

    /// An opened seal: the private key's bytes (X9.63 `04‖X‖Y‖K` for P-256, the 32-byte seed for Ed25519,
    /// zeroized when released), its kind and its access control.
    struct Opened {
        let privateKey: SecretBytes
        let kind: TokenKeyCreation.Kind
        let accessControl: AccessControl
    }

    /// Seals `scalar` (the 32-byte private scalar, or Ed25519 seed) with `publicKey` (65 bytes for P-256, 32
    /// for Ed25519) and `control`.
    static func seal(
        scalar: SecretBytes, publicKey: Data, control: AccessControl, keystore: Keystore
    ) throws(KeychainStatus) -> Data {
        let layout = TokenKeySealLayout(accessControl: control, publicKey: publicKey)
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
        guard let wrappedLength = part.first.map(Int.init), part.count == 1 + wrappedLength + 12 + scalarLength + 16 else {
            throw .authFailed
        }
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
                ciphertext: part[nonceStart + 12..<nonceStart + 12 + scalarLength],
                tag: part[(nonceStart + 12 + scalarLength)...])
            var scalar = try AES.GCM.open(box, using: dataKey, authenticating: layout.header)
            defer { scalar.resetBytes(in: 0..<scalar.count) }
            let kind = TokenKey(sealed: sealed, publicKey: layout.publicKey, accessControl: layout.accessControl).kind
            var privateKey = kind == .ed25519 ? Data() : layout.publicKey
            privateKey.append(scalar)
            defer { privateKey.resetBytes(in: 0..<privateKey.count) }
            return Opened(privateKey: SecretBytes(copying: privateKey), kind: kind, accessControl: layout.accessControl)
        } catch {
            throw .authFailed
        }
    }
}
