import Crypto
import Foundation
import KeychainModel

// The wrap service of protected files: a fresh key per file, wrapped under its class key, and its unwrapping.
extension Keystore {
    /// A fresh 256-bit file key, and its wrapped form for the file's header.
    ///
    /// Classes A, C and D wrap it with their class key's file-key wrapping key, so they need it usable
    /// (``KeystoreError/classUnavailable(_:)`` with `ak` or `ck` otherwise). Class B needs only its public key:
    /// a file of that class can be made while the keychain is locked. A version 1 keybag not yet upgraded has
    /// no class B key pair until the next unlock: ``KeystoreError/classUnavailable(_:)`` with `ak` until then.
    public func makeFileKey(_ protection: FileProtectionClass) throws(KeystoreError) -> FileKey {
        let key = SymmetricKey(size: .bits256)
        let wrapped: WrappedFileKey
        switch protection {
        case .completeUnlessOpen:
            let (wrappedKey, ephemeral) = try FileClassBKeys.wrap(key, for: try fileClassBPair())
            wrapped = WrappedFileKey(protection: protection, wrappedKey: wrappedKey, ephemeralPublicKey: ephemeral)
        case .complete, .completeUntilFirstUserAuthentication, .none:
            let material = try usableClassKey(protection.keychainClass)
            wrapped = WrappedFileKey(protection: protection, wrappedKey: try KeyWrap.wrap(key, with: material.fileKeyWrapping))
        }
        return FileKey(key: key.withUnsafeBytes { SecretBytes(copying: $0) }, wrapped: wrapped)
    }

    /// The file key in `wrapped`, when its class key is usable now: classes A and B only while unlocked, C
    /// after the first unlock, D always (``KeystoreError/classUnavailable(_:)`` otherwise). A key that does not
    /// unwrap (another keychain's, or altered) is ``KeystoreError/wrappedKeyCorrupt``.
    public func unwrapFileKey(_ wrapped: WrappedFileKey) throws(KeystoreError) -> FileKey {
        let material = try usableClassKey(wrapped.protection.keychainClass)
        let key: SymmetricKey
        switch wrapped.protection {
        case .completeUnlessOpen:
            guard let ephemeral = wrapped.ephemeralPublicKey else { throw .wrappedKeyCorrupt }
            let pair = try fileClassBPair()
            let privateKey = try FileClassBKeys.privateKey(of: pair, classA: material)
            key = try FileClassBKeys.unwrap(wrapped.wrappedKey, ephemeralPublicKey: ephemeral, privateKey: privateKey, pair: pair)
        case .complete, .completeUntilFirstUserAuthentication, .none:
            guard wrapped.ephemeralPublicKey == nil else { throw .wrappedKeyCorrupt }
            key = try KeyWrap.unwrap(wrapped.wrappedKey, with: material.fileKeyWrapping)
        }
        guard key.bitCount == 256 else { throw .wrappedKeyCorrupt }
        return FileKey(key: key.withUnsafeBytes { SecretBytes(copying: $0) }, wrapped: wrapped)
    }

    /// File class B's key pair as this instance holds it.
    private func fileClassBPair() throws(KeystoreError) -> Keybag.FileClassBKeyPair {
        guard let pair = state.withLock({ $0.fileClassB }) else { throw .classUnavailable(.whenUnlocked) }
        return pair
    }
}
