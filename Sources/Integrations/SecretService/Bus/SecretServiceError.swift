/// Why the provider could not start serving: no session bus, or another provider owns
/// `org.freedesktop.secrets`.
public struct SecretServiceError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for people.
    public let description: String

    /// A failure described by `description`.
    public init(_ description: String) { self.description = description }
}
