extension AuthenticationRequirement.Factor {
    /// Apple's name for the factor's access-control flag, such as `kSecAccessControlUserPresence`.
    public var appleName: String {
        switch self {
        case .presence: "kSecAccessControlUserPresence"
        case .passcode: "kSecAccessControlDevicePasscode"
        case .biometryAny: "kSecAccessControlBiometryAny"
        case .biometryCurrentSet: "kSecAccessControlBiometryCurrentSet"
        case .companion: "kSecAccessControlCompanion"
        }
    }
}

extension AuthenticationRequirement {
    /// What the person must prove, by Apple's flag names: `kSecAccessControlUserPresence`, or several joined by
    /// "or" (any one suffices) or "and" (`kSecAccessControlAnd`).
    public var appleNames: String {
        factors.map(\.appleName).joined(separator: needsAll ? " and " : " or ")
    }
}
