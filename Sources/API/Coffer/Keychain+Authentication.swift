import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations
import Query

extension Keychain {
    /// Asks the person to prove `policy`, showing `reason` and who asks; the proof then serves calls made
    /// with `context` for `reuseDuration` (at least 10 s, at most 300 s, as `LAContext` caps it).
    ///
    /// The task is suspended, holding no thread, while the person decides: through the daemon's prompt
    /// agent, or, for an embedded keychain, this process's terminal or pinentry.
    ///
    /// - Throws: ``KeychainError`` with `errSecUserCanceled` (-128) when the person cancels,
    ///   `errSecInteractionNotAllowed` (-25308) when nobody can be asked or the context may not interact,
    ///   `errSecAuthFailed` (-25293) for wrong passcodes, no passcode, or no biometry; the reason says which.
    public func authenticate(
        _ context: AuthenticationContext, policy: AuthenticationPolicy, reason: String, reuseDuration: Duration = .zero
    ) async throws(KeychainError) {
        let request = AuthenticationRequest(
            context: context.id, requirement: policy.requirement, reason: reason, reuseDuration: reuseDuration,
            interactive: !context.interactionNotAllowed)
        do {
            try await client.send(.authenticate(request)).authenticationResult()
        } catch {
            throw KeychainError(status: error.status, operation: .authenticate, reason: error.reason)
        }
    }

    /// Sets the application password item calls with `context` use (`kSecAccessControlApplicationPassword`);
    /// nil removes it. The keychain keeps it for this keychain's connection only; `context` does not hold it.
    public func setApplicationPassword(_ password: Data?, for context: AuthenticationContext) async {
        let secret = password.map { SecretBytes(copying: $0) }
        _ = await client.send(.setCredential(context: context.id, applicationPassword: secret))
    }

    /// Forgets `context`'s proofs and application password (`LAContext.invalidate()`).
    public func invalidate(_ context: AuthenticationContext) async {
        _ = await client.send(.invalidateContext(context.id))
    }
}
