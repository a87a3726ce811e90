import CofferRuntime
import KeychainModel
import KeychainOperations
import Keystore
import Query

/// Carries out one authentication: checks what the context has already proved, asks the person for the
/// rest (a finger through the biometric verifier, the passcode through the prompter), and keeps the proof
/// for the context's lifetime.
///
/// Every answer goes to `reply`, exactly once; a prompt that waits for a person holds no thread (the
/// prompter's callback resumes the flow), a finger held on the reader holds one of Coffer's worker threads.
struct AuthenticationFlow: Sendable {
    let sessions: AuthenticationSessions
    let biometry: (any BiometricVerifier)?
    let workers: WorkerThreads
    let keystore: @Sendable () throws(KeystoreError) -> Keystore

    /// Where one authentication happens: the session its proof is kept for, who asks, who prompts.
    struct Setting: Sendable {
        var session: UInt64
        var requester: String
        var prompter: (any AuthenticationPrompter)?
        var charging: PasscodeAttempts
    }

    /// What biometry can do now.
    func biometryState() -> BiometryState {
        biometry?.state() ?? .notAvailable(reason: "no fingerprint reader: fprintd is not running on this machine")
    }

    /// Runs `request`; replies `.status(.success)` or an ``Response/authenticationFailure(_:)``, and whether a person
    /// was asked (a prompt shown, a finger asked for) on the way.
    func authenticate(
        _ request: AuthenticationRequest, in setting: Setting, reply answer: @escaping @Sendable (Response, _ askedPerson: Bool) -> Void
    ) {
        let (verified, _) = sessions.authorization(session: setting.session, context: request.context)
        if request.requirement.isSatisfied(by: verified) { return answer(.status(.success), false) }
        let reply: @Sendable (Response) -> Void = { answer($0, false) }
        guard request.interactive else {
            return reply(
                .authenticationFailure(
                    AuthenticationFailure(
                        .notInteractive, reason: "authentication is needed and the context does not allow interaction (interactionNotAllowed)")))
        }
        let passcodeSet: Bool
        do {
            passcodeSet = try keystore().isPasscodeSet
        } catch {
            return reply(.authenticationFailure(AuthenticationFailure(.authenticationFailed, reason: error.description)))
        }
        let plan = AuthenticationPlan.steps(
            for: request.requirement, given: verified, passcodeSet: passcodeSet, biometry: biometryState())
        switch plan {
        case .failure(let failure):
            reply(.authenticationFailure(failure))
        case .success(let steps):
            run(steps[...], proved: .none, request: request, setting: setting) { outcome in
                switch outcome {
                case .success(let proved):
                    sessions.record(
                        proved, session: setting.session, context: request.context,
                        lifetime: AuthenticationLifetime.of(reuseDuration: request.reuseDuration))
                    answer(.status(.success), true)
                case .failure(let failure):
                    answer(.authenticationFailure(failure), true)
                }
            }
        }
    }

    private typealias Outcome = Result<VerifiedFactors, AuthenticationFailure>

    private func run(
        _ steps: ArraySlice<AuthenticationPlan.Step>, proved: VerifiedFactors, request: AuthenticationRequest, setting: Setting,
        done: @escaping @Sendable (Outcome) -> Void
    ) {
        guard let step = steps.first else { return done(.success(proved)) }
        let rest = steps.dropFirst()
        let next: @Sendable (Outcome) -> Void = { outcome in
            switch outcome {
            case .success(let more): run(rest, proved: proved.merging(more), request: request, setting: setting, done: done)
            case .failure: done(outcome)
            }
        }
        switch step {
        case .passcode:
            askPasscode(request, setting: setting, done: next)
        case .biometry(let set):
            askFinger(request, enrolledSet: set, done: next)
        case .biometryOrPasscode(let set):
            askFinger(request, enrolledSet: set) { outcome in
                switch outcome {
                case .failure(let failure) where failure.code != .userCancel:
                    askPasscode(request, setting: setting, done: next)
                default:
                    next(outcome)
                }
            }
        }
    }

    private func askPasscode(_ request: AuthenticationRequest, setting: Setting, done: @escaping @Sendable (Outcome) -> Void) {
        guard let prompter = setting.prompter else {
            return done(
                .failure(
                    AuthenticationFailure(
                        .notInteractive,
                        reason: "nobody can be asked for the passcode: no terminal, no pinentry (COFFER_PINENTRY) and no prompt agent")))
        }
        let keystore = self.keystore
        let charging = setting.charging
        let question = AuthenticationQuestion(requester: setting.requester, reason: request.reason) { passcode in
            do throws(KeystoreError) {
                try PasscodeVerifier(keystore: try keystore()).verify(passcode, charging: charging)
                return .right
            } catch .wrongPasscode(let failed, let retryAfter) where retryAfter == .zero {
                return .wrong(.wrongPasscode(failedAttempts: failed, retryAfter: retryAfter))
            } catch {
                return .refused(error)
            }
        }
        prompter.confirmPasscode(question) { confirmation in
            switch confirmation {
            case .confirmed: done(.success(VerifiedFactors(passcode: true)))
            case .cancelled: done(.failure(AuthenticationFailure(.userCancel, reason: "the person cancelled the prompt")))
            case .failed(let reason): done(.failure(AuthenticationFailure(.authenticationFailed, reason: reason)))
            case .unavailable(let reason): done(.failure(AuthenticationFailure(.notInteractive, reason: reason)))
            case .timedOut: done(.failure(AuthenticationFailure(.systemCancel, reason: "nobody answered the prompt in time")))
            }
        }
    }

    private func askFinger(_ request: AuthenticationRequest, enrolledSet: [UInt8], done: @escaping @Sendable (Outcome) -> Void) {
        guard let biometry else {
            return done(.failure(AuthenticationFailure(.biometryNotAvailable, reason: "no fingerprint reader")))
        }
        workers.submit {
            switch biometry.verify(reason: request.reason) {
            case .matched: done(.success(VerifiedFactors(biometry: enrolledSet)))
            case .noMatch: done(.failure(AuthenticationFailure(.authenticationFailed, reason: "the finger did not match")))
            case .cancelled: done(.failure(AuthenticationFailure(.userCancel, reason: "the person cancelled the fingerprint check")))
            case .timedOut: done(.failure(AuthenticationFailure(.systemCancel, reason: "nobody touched the fingerprint reader in time")))
            case .unavailable(let reason): done(.failure(AuthenticationFailure(.biometryNotAvailable, reason: reason)))
            }
        }
    }
}
