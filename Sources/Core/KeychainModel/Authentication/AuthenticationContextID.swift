/// Names one authentication context (an `LAContext`) within a connection to the keychain.
///
/// A verified authentication is kept by the keychain under this name, for the connection that made it,
/// until its lifetime ends or the context is invalidated. The name is random, so one program cannot
/// guess another's; it is also meaningless on any other connection.
public struct AuthenticationContextID: Sendable, Hashable, CustomStringConvertible {
    /// The identifier's 16 bytes.
    public let bytes: [UInt8]

    /// An identifier from its 16 bytes; nil for any other length.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        self.bytes = Array(bytes)
    }

    /// A fresh random identifier (the system's generator, `getrandom` on Linux).
    public static func random() -> AuthenticationContextID {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return AuthenticationContextID(bytes: bytes)!
    }

    /// The first four bytes in hexadecimal, for logs.
    public var description: String {
        Hexadecimal.text(bytes.prefix(4)) + "…"
    }
}
