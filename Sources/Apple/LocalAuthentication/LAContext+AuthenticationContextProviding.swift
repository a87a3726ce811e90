import KeychainClient
import Query

extension LAContext: AuthenticationContextProviding {
    /// The context as a `SecItem` dictionary carries it under `kSecUseAuthenticationContext`: its identifier,
    /// and whether it may prompt (not when ``interactionNotAllowed`` is set or the context was invalidated).
    public var authenticationContextReference: AuthenticationContextReference {
        state.withLock { state in
            AuthenticationContextReference(context: identifier, interactionNotAllowed: state.interactionNotAllowed || state.invalidated)
        }
    }
}
