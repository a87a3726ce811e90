/// `SecKeychainRef`: the keychain.
///
/// On Linux there is one keychain per process (the one `COFFER_HOME` names), so every function that takes
/// a keychain accepts `nil` for it, and ``SecKeychainCopyDefault(_:)`` hands out the one object that
/// stands for it. Calls made with that object and with `nil` reach the same items.
public final class SecKeychain: Sendable {
    /// The object ``SecKeychainCopyDefault(_:)`` returns.
    static let `default` = SecKeychain()

    private init() {}
}

/// The legacy spelling of ``SecKeychain``.
public typealias SecKeychainRef = SecKeychain

/// The type identifier of ``SecKeychain``, for comparison with ``CFGetTypeID(_:)``.
public func SecKeychainGetTypeID() -> CFTypeID { TypeIdentifier.keychain.rawValue }
