/// What a person has proved in one authentication: the passcode, a finger, or both.
public struct VerifiedFactors: Sendable, Hashable {
    /// The keychain passcode was typed and checked.
    public var passcode: Bool
    /// A finger matched; the enrolled set's hash at that moment (for `biometryCurrentSet`).
    public var biometry: [UInt8]?
    /// The application password set on the context was right (checked when an item sealed by it opened).
    public var applicationPassword: Bool

    /// Factors; none by default.
    public init(passcode: Bool = false, biometry: [UInt8]? = nil, applicationPassword: Bool = false) {
        self.passcode = passcode
        self.biometry = biometry
        self.applicationPassword = applicationPassword
    }

    /// Nothing proved.
    public static let none = VerifiedFactors()

    /// Both proofs together.
    public func merging(_ other: VerifiedFactors) -> VerifiedFactors {
        VerifiedFactors(
            passcode: passcode || other.passcode, biometry: other.biometry ?? biometry,
            applicationPassword: applicationPassword || other.applicationPassword)
    }
}
