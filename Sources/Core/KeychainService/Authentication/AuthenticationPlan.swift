import KeychainModel
import Query

/// The prompts one authentication takes, chosen from what is missing and what this machine can verify.
enum AuthenticationPlan {
    /// One prompt.
    enum Step: Equatable {
        /// The keychain passcode.
        case passcode
        /// A finger; the enrolled set it proves.
        case biometry(enrolledSet: [UInt8])
        /// A finger, or the passcode when no finger matches (`userPresence`).
        case biometryOrPasscode(enrolledSet: [UInt8])
    }

    /// The steps that obtain what `requirement` still misses after `verified`, or why none can.
    static func steps(
        for requirement: AuthenticationRequirement, given verified: VerifiedFactors, passcodeSet: Bool, biometry: BiometryState
    ) -> Result<[Step], AuthenticationFailure> {
        let missing = requirement.missing(given: verified)
        let options = missing.map { step(for: $0, requirement: requirement, passcodeSet: passcodeSet, biometry: biometry) }
        if requirement.needsAll {
            var steps: [Step] = []
            for option in options {
                switch option {
                case .success(let step): if !steps.contains(step) { steps.append(step) }
                case .failure(let failure): return .failure(failure)
                }
            }
            return .success(steps)
        }
        if let step = options.lazy.compactMap({ try? $0.get() }).first { return .success([step]) }
        if case .failure(let failure)? = options.first { return .failure(failure) }
        return .success([])
    }

    private static func step(
        for factor: AuthenticationRequirement.Factor, requirement: AuthenticationRequirement, passcodeSet: Bool,
        biometry: BiometryState
    ) -> Result<Step, AuthenticationFailure> {
        switch factor {
        case .passcode:
            return passcodeSet ? .success(.passcode) : .failure(noPasscode)
        case .presence:
            if case .available(let set) = biometry { return .success(passcodeSet ? .biometryOrPasscode(enrolledSet: set) : .biometry(enrolledSet: set)) }
            return passcodeSet ? .success(.passcode) : .failure(noPasscode)
        case .biometryAny:
            return enrolledSet(biometry).map { .biometry(enrolledSet: $0) }
        case .biometryCurrentSet:
            return enrolledSet(biometry).flatMap { set in
                guard set == requirement.boundBiometrySet else {
                    return .failure(
                        AuthenticationFailure(
                            .authenticationFailed,
                            reason: "the enrolled fingers changed since the item was stored; it can no longer be read (biometryCurrentSet)"))
                }
                return .success(.biometry(enrolledSet: set))
            }
        case .companion:
            return .failure(AuthenticationFailure(.companionNotAvailable, reason: "Linux has no paired companion device"))
        }
    }

    private static func enrolledSet(_ biometry: BiometryState) -> Result<[UInt8], AuthenticationFailure> {
        switch biometry {
        case .available(let set): .success(set)
        case .notEnrolled: .failure(AuthenticationFailure(.biometryNotEnrolled, reason: "no fingers are enrolled (fprintd-enroll)"))
        case .notAvailable(let reason): .failure(AuthenticationFailure(.biometryNotAvailable, reason: reason))
        }
    }

    private static let noPasscode = AuthenticationFailure(
        .passcodeNotSet, reason: "the keychain has no passcode (the device passcode on Linux): set one with `coffer passcode set`")
}
