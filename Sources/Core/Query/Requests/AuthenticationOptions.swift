import Foundation
import KeychainModel

/// What a call may do when an item needs user authentication (`kSecUseAuthenticationUI`, §6.4).
public enum AuthenticationUI: Sendable, Hashable {
    /// `kSecUseAuthenticationUIAllow` (the default): prompt.
    case allow
    /// `kSecUseAuthenticationUIFail` or `kSecUseNoAuthenticationUI = true`: fail with -25308 instead of prompting.
    case fail
    /// `kSecUseAuthenticationUISkip` (SecItemCopyMatching only): silently leave out items that need authentication.
    case skip
}

/// The `kSecUse…` authentication settings of a request, passed through to the engine.
public struct AuthenticationOptions: Sendable, Hashable {
    /// Whether the call may prompt.
    public var ui: AuthenticationUI
    /// `kSecUseAuthenticationContext`: the caller's `LAContext`, as the `Security` module bridged it.
    public var context: KeychainValue?
    /// The context `context` (or a 16-byte `kSecUseCredentialReference`) names, if any.
    public var contextReference: AuthenticationContextReference? {
        if let context { return AuthenticationContextReference(context) }
        if let credentialReference, let id = AuthenticationContextID(bytes: credentialReference) {
            return AuthenticationContextReference(context: id)
        }
        return nil
    }
    /// `kSecUseCredentialReference` (SPI): an externalized authentication context.
    public var credentialReference: Data?
    /// `kSecUseOperationPrompt`: the reason shown in the authentication UI.
    public var operationPrompt: String?

    /// Options; by default the call may prompt and carries no context.
    public init(
        ui: AuthenticationUI = .allow, context: KeychainValue? = nil, credentialReference: Data? = nil,
        operationPrompt: String? = nil
    ) {
        self.ui = ui
        self.context = context
        self.credentialReference = credentialReference
        self.operationPrompt = operationPrompt
    }
}
