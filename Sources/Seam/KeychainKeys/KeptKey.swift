import Foundation
import KeyCrypto
import KeychainModel
import KeychainOperations

/// A key whose private part the keychain keeps: its handle (the seal, the public key and the access control),
/// its kind, its public key, and how its uses authenticate.
public struct KeptKey: Sendable, Hashable {
    /// The keychain's handle of the key.
    public let handle: TokenKey
    /// The kind of key (``TokenKeyCreation/Kind``), which says what it does.
    public let kind: TokenKeyCreation.Kind
    /// The public key.
    public let publicKey: AsymmetricKey
    /// The context, prompt and interactivity the key's uses carry.
    public var authentication: TokenKeyAuthentication

    /// The key of `handle`, whose public key is checked here. A handle whose public key is no key of its
    /// kind throws `errSecAuthFailed` (-25293): it is no handle this keychain made.
    public init(_ handle: TokenKey, authentication: TokenKeyAuthentication = .init()) throws(KeychainFailure) {
        let kind = handle.kind
        guard let type = KeyType(rawValue: kind.keyTypeCode),
            let publicKey = try? AsymmetricKey(externalRepresentation: handle.publicKey, type: type, keyClass: .publicKey)
        else {
            throw KeychainFailure(.authFailed, reason: "the key's handle holds no public key of its kind")
        }
        self.handle = handle
        self.kind = kind
        self.publicKey = publicKey
        self.authentication = authentication
    }

    /// The key whose seal is `sealed` (CryptoKit's `dataRepresentation`, a key item's data); nil when the
    /// bytes are no handle.
    public init?(sealed: Data, authentication: TokenKeyAuthentication = .init()) {
        guard let handle = TokenKey(sealed: sealed), let key = try? KeptKey(handle, authentication: authentication) else { return nil }
        self = key
    }

    /// The same key, its uses authenticating with `authentication`.
    public func authenticating(with authentication: TokenKeyAuthentication) -> KeptKey {
        var key = self
        key.authentication = authentication
        return key
    }

    /// Kept keys are equal when their seals are: the same key of the same keychain.
    public static func == (lhs: KeptKey, rhs: KeptKey) -> Bool { lhs.handle.sealed == rhs.handle.sealed }

    public func hash(into hasher: inout Hasher) { hasher.combine(handle.sealed) }
}
