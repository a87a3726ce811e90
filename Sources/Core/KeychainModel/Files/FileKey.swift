import Foundation

/// A per-file key as a protected file's header keeps it: wrapped under its class key.
///
/// For ``FileProtectionClass/completeUnlessOpen`` the wrapping key comes from an X25519 agreement between a
/// one-time key pair and the class's public key; ``ephemeralPublicKey`` is that one-time public key (32
/// bytes), and nil for the other classes.
public struct WrappedFileKey: Sendable, Hashable {
    /// The file's protection class.
    public var protection: FileProtectionClass
    /// The file key under RFC 3394 AES key wrap (40 bytes for a 256-bit key).
    public var wrappedKey: Data
    /// Class B's one-time X25519 public key; nil for the other classes.
    public var ephemeralPublicKey: Data?

    /// A wrapped key with its class.
    public init(protection: FileProtectionClass, wrappedKey: Data, ephemeralPublicKey: Data? = nil) {
        self.protection = protection
        self.wrappedKey = wrappedKey
        self.ephemeralPublicKey = ephemeralPublicKey
    }
}

/// A per-file key in the clear (zeroized when released) with its wrapped form, as the keychain answers a
/// request to make or unwrap one.
public struct FileKey: Sendable, Equatable {
    /// The 256-bit key.
    public let key: SecretBytes
    /// The key wrapped under its class key, for the file's header.
    public let wrapped: WrappedFileKey

    /// A key and its wrapped form.
    public init(key: SecretBytes, wrapped: WrappedFileKey) {
        self.key = key
        self.wrapped = wrapped
    }
}
