import Foundation
import KeychainSelection
import KeychainModel
import KeychainOperations
import Query
import Security
import Synchronization

/// An authentication context: asks the person to prove their presence, and carries the proof to the
/// keychain calls that pass it under `kSecUseAuthenticationContext`.
///
/// The keychain does the work. A context is a random identifier (``AuthenticationContextID``) on the
/// process's keychain connection (`SharedKeychainClient.current`, captured when the context is made, so
/// that the `Security` module's calls reach the same connection); ``evaluatePolicy(_:localizedReason:reply:)``
/// asks the keychain to verify the person, and the keychain keeps the proof under the identifier, for that
/// connection only, for the reuse duration (at least 10 s, at most 300 s). A `SecItem…` call carrying the
/// context then reads the items the proof satisfies without a second prompt.
///
/// How the person answers depends on where the keychain runs: through `cofferd`, the daemon asks the
/// session's prompt agent (`coffer prompt-agent`); an embedded keychain asks on this process's terminal or
/// through pinentry. Fingers go through fprintd in both cases.
///
/// Replies are called once, on a queue of the context's own (never the caller's thread); waiting for the
/// person holds no thread. The context is safe to use from several threads.
///
/// Choices where Apple's behaviour does not carry over:
/// - An empty `localizedReason` makes Apple's framework raise an Objective-C exception. Here the evaluation
///   fails instead, with ``LAError/Code/authenticationFailed`` and the debug description
///   "Non-empty localizedReason must be provided." — never a crash, never a silent success, and not a
///   cancellation (which apps often ignore).
/// - After ``invalidate()``, evaluations under way end with ``LAError/Code/appCancel`` (as Apple documents),
///   and every later evaluation and ``canEvaluatePolicy(_:error:)`` fails with
///   ``LAError/Code/invalidContext``. An item call that carries an invalidated context never prompts: it
///   fails with `errSecInteractionNotAllowed` (-25308) when the item needs authentication.
/// - A prompt already shown when the context is invalidated stays on the screen; its answer is discarded.
open class LAContext: NSObject, @unchecked Sendable {
    /// The keychain the context's proofs live in: the one the process's `Security` calls use.
    let client: any KeychainClient
    /// The context's name in the keychain.
    let identifier: AuthenticationContextID
    /// Everything that changes, under one lock.
    let state = Mutex(ContextState())
    /// Where replies are called.
    let replyQueue = DispatchQueue(label: "LocalAuthentication.LAContext.reply")

    /// A new context on the process's keychain (the current task's, in tests).
    public override init() {
        client = SharedKeychainClient.current
        identifier = AuthenticationContextID.random()
        super.init()
    }

    deinit {
        // A context that proved something or holds a credential asks the keychain to forget it.
        guard state.withLock({ $0.everProved || !$0.credentials.isEmpty }) else { return }
        let (client, identifier) = (client, identifier)
        Task.detached { _ = await client.send(.invalidateContext(identifier)) }
    }

    // MARK: Evaluating

    /// Whether `policy` can be evaluated now; when not, `error` receives the ``LAError`` as an `NSError`.
    ///
    /// Asks the keychain what it can verify: ``LAPolicy/deviceOwnerAuthentication`` needs a keychain
    /// passcode (``LAError/Code/passcodeNotSet``); the biometric policies need fprintd with a reader
    /// (``LAError/Code/biometryNotAvailable``) and enrolled fingers (``LAError/Code/biometryNotEnrolled``);
    /// the companion policies fail with ``LAError/Code/companionNotAvailable``. Sets ``biometryType``, and
    /// ``evaluatedPolicyDomainState`` when a biometric policy can be evaluated. Blocks the calling thread for
    /// one round trip to the keychain.
    open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool {
        switch preflight(policy) {
        case .success:
            error?.pointee = nil
            return true
        case .failure(let failure):
            error?.pointee = failure._nsError
            return false
        }
    }

    /// Asks the person to prove their presence for `policy`, showing `localizedReason`, and calls `reply`
    /// with the outcome: `(true, nil)`, or `(false, error)` with an ``LAError``.
    ///
    /// A context that has already been evaluated successfully, and whose proof has not expired, succeeds
    /// again without a prompt. With ``interactionNotAllowed`` the evaluation fails with
    /// ``LAError/Code/notInteractive`` instead of prompting.
    open func evaluatePolicy(
        _ policy: LAPolicy, localizedReason: String, reply: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        begin(
            token: reserveToken(), requirement: policy.requirement, reason: localizedReason, biometric: policy.isBiometric,
            finish: replying(to: reply))
    }

    /// The `async` form of ``evaluatePolicy(_:localizedReason:reply:)``: returns true, or throws an
    /// ``LAError``. Cancelling the task ends the evaluation with ``LAError/Code/appCancel``.
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
        try await evaluate(policy.requirement, reason: localizedReason, biometric: policy.isBiometric)
    }

    /// Asks the person for what `accessControl` requires for `operation`, as a keychain call would, and
    /// calls `reply` with the outcome. An access control without constraints, and the creating operations
    /// (which access control does not gate), succeed without a prompt.
    open func evaluateAccessControl(
        _ accessControl: SecAccessControl, operation: LAAccessControlOperation, localizedReason: String,
        reply: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let requirement = operation.requirement(for: accessControl.accessControl)
        begin(
            token: reserveToken(), requirement: requirement, reason: localizedReason,
            biometric: requirement?.namesBiometry ?? false, finish: replying(to: reply))
    }

    /// The `async` form of ``evaluateAccessControl(_:operation:localizedReason:reply:)``.
    open func evaluateAccessControl(
        _ accessControl: SecAccessControl, operation: LAAccessControlOperation, localizedReason: String
    ) async throws -> Bool {
        let requirement = operation.requirement(for: accessControl.accessControl)
        return try await evaluate(requirement, reason: localizedReason, biometric: requirement?.namesBiometry ?? false)
    }

    /// Ends the context: evaluations under way fail with ``LAError/Code/appCancel``, the keychain forgets
    /// the context's proofs and credential, and every later evaluation fails with
    /// ``LAError/Code/invalidContext``. Invalidating again does nothing.
    open func invalidate() {
        let (wasValid, pending) = state.withLock { state in
            let wasValid = !state.invalidated
            state.invalidated = true
            state.credentials = []
            let pending = Array(state.pending.values)
            state.pending = [:]
            return (wasValid, pending)
        }
        if wasValid { _ = client.sendBlocking(.invalidateContext(identifier)) }
        for evaluation in pending {
            evaluation.task?.cancel()
            evaluation.finish(.failure(LAError(.appCancel, reason: "the context was invalidated during the evaluation")))
        }
    }

    // MARK: Credentials

    /// Sets the application password the context's keychain calls use to open items made with
    /// `kSecAccessControlApplicationPassword` (nil removes it). The bytes go to the keychain as a secret
    /// that is wiped when released; the context keeps no copy. Returns false for ``LACredentialType/smartCardPIN``
    /// (Coffer has no smart cards), on an invalidated context, and when the keychain cannot be reached.
    open func setCredential(_ credential: Data?, type: LACredentialType) -> Bool {
        guard type == .applicationPassword, !state.withLock({ $0.invalidated }) else { return false }
        let secret = credential.map { SecretBytes(copying: $0) }
        let answer = client.sendBlocking(.setCredential(context: identifier, applicationPassword: secret))
        guard (try? answer.authenticationResult()) != nil else { return false }
        state.withLock { state in
            if credential == nil { state.credentials.remove(type) } else { state.credentials.insert(type) }
        }
        return true
    }

    /// Whether a credential of `type` is set on the context.
    open func isCredentialSet(_ type: LACredentialType) -> Bool {
        state.withLock { $0.credentials.contains(type) }
    }

    // MARK: Settings

    /// How long, in seconds, a successful evaluation serves later evaluations and keychain calls with this
    /// context without a new prompt. Default 0 (the keychain then keeps the proof for 10 s, long enough for
    /// the calls that follow an evaluation). Values above
    /// ``LATouchIDAuthenticationMaximumAllowableReuseDuration`` (300) are stored as 300, negative ones as 0.
    open var touchIDAuthenticationAllowableReuseDuration: TimeInterval {
        get { state.withLock { $0.reuseDuration } }
        set {
            let capped = newValue.isNaN ? 0 : min(max(newValue, 0), LATouchIDAuthenticationMaximumAllowableReuseDuration)
            state.withLock { $0.reuseDuration = capped }
        }
    }

    /// The reason shown when a keychain call carrying this context prompts. Kept for Apple's API; Coffer's
    /// item prompts show the call's `kSecUseOperationPrompt`.
    open var localizedReason: String {
        get { state.withLock { $0.localizedReason } }
        set { state.withLock { $0.localizedReason = newValue } }
    }

    /// The title of the fallback button. Coffer's prompts (the prompt agent, pinentry, the terminal) have
    /// no fallback button; the value is kept for Apple's API.
    open var localizedFallbackTitle: String? {
        get { state.withLock { $0.localizedFallbackTitle } }
        set { state.withLock { $0.localizedFallbackTitle = newValue } }
    }

    /// The title of the cancel button. Kept for Apple's API; Coffer's prompts keep their own.
    open var localizedCancelTitle: String? {
        get { state.withLock { $0.localizedCancelTitle } }
        set { state.withLock { $0.localizedCancelTitle = newValue } }
    }

    /// When true, nothing this context does prompts: an evaluation that would need the person fails with
    /// ``LAError/Code/notInteractive``, and a keychain call carrying the context fails with
    /// `errSecInteractionNotAllowed` (-25308) instead of prompting.
    open var interactionNotAllowed: Bool {
        get { state.withLock { $0.interactionNotAllowed } }
        set { state.withLock { $0.interactionNotAllowed = newValue } }
    }

    /// An opaque value that changes when the enrolled fingers change (fprintd's enrolled set, hashed by the
    /// keychain). Nil until ``canEvaluatePolicy(_:error:)`` succeeded for a biometric policy or a biometric
    /// evaluation succeeded.
    open var evaluatedPolicyDomainState: Data? {
        state.withLock { $0.domainState }
    }

    /// The biometry of this machine: ``LABiometryType/touchID`` when fprintd reports a fingerprint reader
    /// (enrolled fingers or not), ``LABiometryType/none`` otherwise. Set by ``canEvaluatePolicy(_:error:)``,
    /// whatever it returns; ``LABiometryType/none`` before.
    open var biometryType: LABiometryType {
        state.withLock { $0.biometryType }
    }
}
