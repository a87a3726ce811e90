import KeychainModel
import Query

/// What the daemon answers to a ``Request`` (the table at ``Request`` says which answer goes with which
/// request).
public enum Response: Sendable, Equatable {
    /// `SecItemAdd` or `SecItemCopyMatching` succeeded: the result, or `nil` when none was asked for.
    case value(KeychainValue?)
    /// An item or registry operation's status: `.success` for one that returns nothing, Apple's error
    /// code otherwise. The code travels as its `Int32`, so codes this build does not name survive too.
    case status(KeychainStatus)
    /// A keystore operation failed; the client rebuilds the exact `KeystoreError`.
    case keystoreError(WireKeystoreError)
    /// The keystore's status.
    case lockStatus(WireKeystoreStatus)
    /// The entitlements registry.
    case apps([RegisteredApp])
}
