/// `SecKeychainRef`. No function returns one: pass `nil` for "the keychain".
///
/// On Linux there is one keychain per process (the one `COFFER_HOME` names), so the lock-control functions
/// take `nil` for it.
public final class SecKeychain: Sendable {
    private init() {}
}

/// The legacy spelling of ``SecKeychain``.
public typealias SecKeychainRef = SecKeychain
