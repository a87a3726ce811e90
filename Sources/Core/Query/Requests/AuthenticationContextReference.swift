import Foundation
import KeychainModel

/// An `LAContext` as an item call carries it under `kSecUseAuthenticationContext`: the context's
/// identifier and whether it may prompt. The `LocalAuthentication` module's `LAContext` and the `Coffer`
/// API's authentication context both put it in the dictionary; the keychain looks up the context's live
/// proofs and credential by the identifier, for the caller's connection only.
public struct AuthenticationContextReference: Sendable, Hashable {
    /// The context.
    public var context: AuthenticationContextID
    /// `LAContext.interactionNotAllowed`: a call that would need a prompt fails with -25308 instead.
    public var interactionNotAllowed: Bool

    /// A reference.
    public init(context: AuthenticationContextID, interactionNotAllowed: Bool = false) {
        self.context = context
        self.interactionNotAllowed = interactionNotAllowed
    }

    /// The dictionary value: the identifier's 16 bytes and a flags byte (bit 0: interaction not allowed).
    public var keychainValue: KeychainValue {
        .data(Data(context.bytes + [interactionNotAllowed ? 1 : 0]))
    }

    /// The reference a dictionary value holds; nil when it is not one.
    public init?(_ value: KeychainValue) {
        guard case .data(let bytes) = value, bytes.count == 17, let context = AuthenticationContextID(bytes: bytes.prefix(16)),
            bytes.last! <= 1
        else { return nil }
        self.init(context: context, interactionNotAllowed: bytes.last == 1)
    }
}
