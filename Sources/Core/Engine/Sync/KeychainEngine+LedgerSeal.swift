import Crypto
import Foundation
import KeychainModel

extension KeychainEngine {
    /// The protection class of what sync keeps secret in its ledger (the device's seed, the account keys, conflicts):
    /// readable in the background once the keychain has been unlocked, and never carried off the device.
    static let ledgerProtection = ProtectionClass.afterFirstUnlockThisDeviceOnly

    /// `secret` sealed for the sync ledger under `label`: AES-256-GCM under a fresh key that the keystore wraps with
    /// the class key of ``ledgerProtection``. Layout: the wrapped key's length (2 bytes), the wrapped key, the sealed
    /// box (nonce, ciphertext, tag). While the keychain has never been unlocked this throws -25308.
    public func sealForLedger(_ secret: SecretBytes, label: String) throws(EngineRefusal) -> Data {
        try mapped {
            let key = SymmetricKey(size: .bits256)
            let wrapped = try keystore.wrapItemKey(key, protection: Self.ledgerProtection)
            let box = try secret.withUnsafeBytes { bytes in try AES.GCM.seal(bytes, using: key, authenticating: Data(label.utf8)) }
            guard let combined = box.combined, wrapped.count <= Int(UInt16.max) else { throw EngineRefusal(.internal, nil, "cannot seal a sync secret") }
            var sealed = Data([UInt8(wrapped.count >> 8), UInt8(wrapped.count & 0xff)])
            sealed.append(wrapped)
            sealed.append(combined)
            return sealed
        }
    }

    /// What ``sealForLedger(_:label:)`` sealed under `label`, in zeroizing memory; a seal that was changed or made for
    /// another label is -26275 (errSecDecode).
    public func openFromLedger(_ sealed: Data, label: String) throws(EngineRefusal) -> SecretBytes {
        let bytes = [UInt8](sealed)
        guard bytes.count >= 2 else { throw EngineRefusal(.decode, nil, "a sealed sync secret is damaged") }
        let wrappedCount = Int(bytes[0]) << 8 | Int(bytes[1])
        guard bytes.count > 2 + wrappedCount else { throw EngineRefusal(.decode, nil, "a sealed sync secret is damaged") }
        let key = try mapped { try keystore.unwrapItemKey(Data(bytes[2..<(2 + wrappedCount)]), protection: Self.ledgerProtection) }
        do {
            let box = try AES.GCM.SealedBox(combined: bytes[(2 + wrappedCount)...])
            var opened = try AES.GCM.open(box, using: key, authenticating: Data(label.utf8))
            defer { opened.resetBytes(in: 0..<opened.count) }
            return SecretBytes(copying: opened)
        } catch {
            throw EngineRefusal(.decode, nil, "a sealed sync secret is damaged or belongs elsewhere")
        }
    }
}
