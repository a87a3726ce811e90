import KeychainModel

/// What the caller of one item call has proved, and the credentials it brings: the engine opens an
/// access-controlled item only when these meet the item's access control.
public struct ItemAuthorization: Sendable {
    /// The proofs of the call's authentication context that are still alive.
    public var verified: VerifiedFactors
    /// The context's application password (`LAContext.setCredential(_:type: .applicationPassword)`).
    public var applicationPassword: SecretBytes?
    /// The enrolled biometric set now, for binding a new `biometryCurrentSet` item; nil without biometry.
    public var currentBiometrySet: [UInt8]?

    /// An authorization.
    public init(verified: VerifiedFactors = .none, applicationPassword: SecretBytes? = nil, currentBiometrySet: [UInt8]? = nil) {
        self.verified = verified
        self.applicationPassword = applicationPassword
        self.currentBiometrySet = currentBiometrySet
    }

    /// Nothing proved, no credential: access-controlled items need authentication.
    public static let none = ItemAuthorization()
}
