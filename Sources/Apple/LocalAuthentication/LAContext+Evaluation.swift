import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations
import Query
import Synchronization

// How an evaluation runs: registered under a token (so that `invalidate()` can end it), sent with the
// client's `async` `send` from a task of its own (waiting for the person holds no thread), finished once.

extension LAContext {
    /// The reason an empty `localizedReason` fails with (Apple's framework raises an exception instead).
    static let emptyReasonMessage = "Non-empty localizedReason must be provided."

    /// A token for the next evaluation.
    func reserveToken() -> UInt64 {
        state.withLock { state in
            defer { state.nextToken += 1 }
            return state.nextToken
        }
    }

    /// Starts evaluation `token`: `finish` hears its outcome once. A nil `requirement` (an access control
    /// without constraints for the operation) succeeds at once.
    func begin(
        token: UInt64, requirement: AuthenticationRequirement?, reason: String, biometric: Bool, cancelled: Bool = false,
        finish: @escaping @Sendable (Result<Void, LAError>) -> Void
    ) {
        let request: Result<AuthenticationRequest?, LAError> = state.withLock { state in
            if reason.isEmpty { return .failure(LAError(.authenticationFailed, reason: Self.emptyReasonMessage)) }
            if state.invalidated {
                return .failure(LAError(.invalidContext, reason: "the context was invalidated; make a new LAContext"))
            }
            if cancelled { return .failure(LAError(.appCancel, reason: "the task evaluating the policy was cancelled")) }
            state.pending[token] = PendingEvaluation(finish: finish)
            return .success(
                requirement.map { requirement in
                    AuthenticationRequest(
                        context: identifier, requirement: requirement, reason: reason,
                        reuseDuration: .seconds(state.reuseDuration), interactive: !state.interactionNotAllowed)
                })
        }
        switch request {
        case .failure(let error):
            finish(.failure(error))
        case .success(nil):
            complete(token, with: .success(()))
        case .success(let request?):
            let task = Task.detached { [self] in
                complete(token, with: await authenticate(request, biometric: biometric))
            }
            state.withLock { $0.pending[token]?.task = task }
        }
    }

    /// Asks the keychain; after a biometric success, notes the enrolled set's state.
    private func authenticate(_ request: AuthenticationRequest, biometric: Bool) async -> Result<Void, LAError> {
        let answer = await client.send(.authenticate(request))
        do {
            try answer.authenticationResult()
        } catch {
            return .failure(LAError(error))
        }
        if biometric, case .authenticationCapabilities(let capabilities) = await client.send(.authenticationCapabilities),
            case .available(let domainState) = capabilities.biometry
        {
            state.withLock { $0.domainState = Data(domainState) }
        }
        return .success(())
    }

    /// Hands evaluation `token`'s outcome to its caller, unless the evaluation was ended first. A proof
    /// made after the context was invalidated is dropped at once.
    func complete(_ token: UInt64, with outcome: Result<Void, LAError>) {
        let (pending, invalidated) = state.withLock { state in
            let pending = state.pending.removeValue(forKey: token)
            if pending != nil, case .success = outcome { state.everProved = true }
            return (pending, state.invalidated)
        }
        if let pending { return pending.finish(outcome) }
        if invalidated, case .success = outcome {
            let (client, identifier) = (client, identifier)
            Task.detached { _ = await client.send(.invalidateContext(identifier)) }
        }
    }

    /// Ends evaluation `token` with ``LAError/Code/appCancel`` (its caller's task was cancelled).
    func cancel(_ token: UInt64) {
        guard let pending = state.withLock({ $0.pending.removeValue(forKey: token) }) else { return }
        pending.task?.cancel()
        pending.finish(.failure(LAError(.appCancel, reason: "the task evaluating the policy was cancelled")))
    }

    /// An outcome handler that calls Apple's `reply` on the context's reply queue.
    func replying(to reply: @escaping @Sendable (Bool, (any Error)?) -> Void) -> @Sendable (Result<Void, LAError>) -> Void {
        let queue = replyQueue
        return { outcome in
            queue.async {
                switch outcome {
                case .success: reply(true, nil)
                case .failure(let error): reply(false, error)
                }
            }
        }
    }

    /// The `async` evaluations: true, or the ``LAError`` thrown.
    func evaluate(_ requirement: AuthenticationRequirement?, reason: String, biometric: Bool) async throws -> Bool {
        let token = reserveToken()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bool, any Error>) in
                begin(
                    token: token, requirement: requirement, reason: reason, biometric: biometric, cancelled: Task.isCancelled
                ) { outcome in
                    continuation.resume(with: outcome.map { true }.mapError { $0 as any Error })
                }
            }
        } onCancel: {
            cancel(token)
        }
    }
}
