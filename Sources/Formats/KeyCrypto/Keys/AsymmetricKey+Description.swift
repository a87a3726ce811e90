extension AsymmetricKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The kind, size and class, such as "EC P-256 private key": never key bytes.
    public var description: String { summary }
    /// Same as ``description``.
    public var debugDescription: String { summary }
    /// A mirror without children, so `dump(_:)` shows no key material.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
