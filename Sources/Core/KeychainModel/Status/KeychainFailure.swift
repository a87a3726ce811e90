/// A keychain call that did not succeed: Apple's status, and why in words when the keychain said.
///
/// The status is what Apple code compares (`errSecParam`, -50); the reason is for people: which rule,
/// which key, what was wrong (`G4: kSecAttrServer is not an attribute of kSecClassGenericPassword`). A
/// reason never contains a secret.
public struct KeychainFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Apple's status.
    public var status: KeychainStatus
    /// What was refused and why; nil when the status says it all.
    public var reason: String?
    /// Whether the keychain did not open because its TPM no longer opens it: its recovery key does.
    public var awaitsRecovery: Bool

    /// A failure with `status` and, optionally, its reason.
    public init(_ status: KeychainStatus, reason: String? = nil, awaitsRecovery: Bool = false) {
        self.status = status
        self.reason = reason
        self.awaitsRecovery = awaitsRecovery
    }

    /// `name (code): explanation`, then the reason.
    public var description: String {
        guard let reason else { return status.description }
        return "\(status.description) \(reason)"
    }
}
