/// How the provider unlocks the keychain when a client's `Prompt` asks it to: through Coffer's own prompter
/// (the terminal, pinentry, or the daemon's prompt agent), never a desktop-only dialog. It blocks its
/// thread, which is never the bus thread.
public struct SecretServiceUnlocker: Sendable {
    private let body: @Sendable () -> Bool

    /// An unlocker that runs `body`, which answers whether the keychain is now unlocked.
    public init(_ body: @escaping @Sendable () -> Bool) {
        self.body = body
    }

    /// Asks the person and unlocks; false when they declined or the passcode could not be had.
    public func unlock() -> Bool { body() }

    /// An unlocker that never unlocks (no prompter available).
    public static let unavailable = SecretServiceUnlocker { false }
}
