import KeychainModel

/// What a person must prove before an item opens, or before an `LAContext` policy evaluates: one or all of
/// a set of factors (§6.1, §6.2). Built from an item's ``AccessControl`` or from a LocalAuthentication policy.
public struct AuthenticationRequirement: Sendable, Hashable {
    /// One way of proving presence.
    public enum Factor: UInt8, Sendable, Hashable, CaseIterable {
        /// `kSecAccessControlUserPresence`, `LAPolicy.deviceOwnerAuthentication`: a finger, or the passcode.
        case presence = 1
        /// `kSecAccessControlDevicePasscode`: the keychain passcode.
        case passcode = 2
        /// `kSecAccessControlBiometryAny`, `LAPolicy.deviceOwnerAuthenticationWithBiometrics`: any enrolled finger.
        case biometryAny = 3
        /// `kSecAccessControlBiometryCurrentSet`: a finger of the set enrolled when the item was stored.
        case biometryCurrentSet = 4
        /// `kSecAccessControlCompanion`: a paired watch. Linux has none, so it is never satisfied.
        case companion = 5
    }

    /// The factors, each once, in ``Factor`` order.
    public let factors: [Factor]
    /// `kSecAccessControlAnd`: every factor is needed; otherwise any one suffices.
    public let needsAll: Bool
    /// For ``Factor/biometryCurrentSet``: the enrolled set the item was bound to.
    public let boundBiometrySet: [UInt8]?

    /// A requirement of `factors` (any one, or all).
    public init(factors: some Sequence<Factor>, needsAll: Bool = false, boundBiometrySet: [UInt8]? = nil) {
        self.factors = Set(factors).sorted { $0.rawValue < $1.rawValue }
        self.needsAll = needsAll
        self.boundBiometrySet = boundBiometrySet
    }

    /// What an item's access control asks before the item is read; nil when it asks nothing.
    public init?(accessControl: AccessControl) {
        guard accessControl.constrainsReading else { return nil }
        var factors: [Factor] = []
        let flags = accessControl.flags
        if flags.contains(.userPresence) { factors.append(.presence) }
        if flags.contains(.devicePasscode) { factors.append(.passcode) }
        if flags.contains(.biometryAny) { factors.append(.biometryAny) }
        if flags.contains(.biometryCurrentSet) { factors.append(.biometryCurrentSet) }
        if flags.contains(.companion) { factors.append(.companion) }
        self.init(factors: factors, needsAll: flags.contains(.and), boundBiometrySet: accessControl.boundBiometrySet)
    }

    /// Whether `verified` meets the requirement.
    public func isSatisfied(by verified: VerifiedFactors) -> Bool {
        guard !factors.isEmpty else { return true }
        return needsAll ? factors.allSatisfy { isMet($0, by: verified) } : factors.contains { isMet($0, by: verified) }
    }

    /// Whether `verified` meets `factor`.
    public func isMet(_ factor: Factor, by verified: VerifiedFactors) -> Bool {
        switch factor {
        case .presence: verified.passcode || verified.biometry != nil
        case .passcode: verified.passcode
        case .biometryAny: verified.biometry != nil
        case .biometryCurrentSet: verified.biometry != nil && verified.biometry == boundBiometrySet
        case .companion: false
        }
    }

    /// The factors a prompt has to obtain now, given what is already `verified`.
    public func missing(given verified: VerifiedFactors) -> [Factor] {
        factors.filter { !isMet($0, by: verified) }
    }

    /// Whether a biometric factor is involved (the item or policy names biometry explicitly).
    public var namesBiometry: Bool { factors.contains(.biometryAny) || factors.contains(.biometryCurrentSet) }
}
