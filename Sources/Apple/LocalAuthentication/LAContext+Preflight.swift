import Foundation
import KeychainModel
import KeychainOperations

extension LAContext {
    /// `canEvaluatePolicy`: what the keychain can verify now, judged for `policy`; notes the biometry type
    /// and, for a biometric policy that can be evaluated, the enrolled set's state.
    func preflight(_ policy: LAPolicy) -> Result<Void, LAError> {
        if state.withLock({ $0.invalidated }) {
            return .failure(LAError(.invalidContext, reason: "the context was invalidated; make a new LAContext"))
        }
        let capabilities: AuthenticationCapabilities
        do {
            capabilities = try client.sendBlocking(.authenticationCapabilities).capabilitiesResult()
        } catch {
            return .failure(LAError(.notInteractive, reason: "the keychain cannot be asked what it can verify: \(error)"))
        }
        state.withLock { state in
            if case .notAvailable = capabilities.biometry { state.biometryType = .none } else { state.biometryType = .touchID }
        }
        switch policy {
        case .deviceOwnerAuthentication:
            guard capabilities.passcodeSet else {
                return .failure(
                    LAError(
                        .passcodeNotSet,
                        reason: "the keychain has no passcode (the device passcode on Linux): set one with `coffer passcode set`"))
            }
            return .success(())
        case .deviceOwnerAuthenticationWithBiometrics, .deviceOwnerAuthenticationWithBiometricsOrCompanion:
            switch capabilities.biometry {
            case .available(let domainState):
                state.withLock { $0.domainState = Data(domainState) }
                return .success(())
            case .notEnrolled:
                return .failure(LAError(.biometryNotEnrolled, reason: "no fingers are enrolled (fprintd-enroll)"))
            case .notAvailable(let reason):
                return .failure(LAError(.biometryNotAvailable, reason: reason))
            }
        case .deviceOwnerAuthenticationWithCompanion, .deviceOwnerAuthenticationWithWristDetection:
            return .failure(LAError(.companionNotAvailable, reason: "Linux has no paired companion device"))
        }
    }
}
