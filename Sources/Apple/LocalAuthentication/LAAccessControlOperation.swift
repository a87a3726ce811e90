/// The operations ``LAContext/evaluateAccessControl(_:operation:localizedReason:reply:)`` evaluates an
/// access control for, with Apple's raw values.
///
/// An access control with constraints protects *using* what it guards (reading an item, using a private
/// key); creating an item or a key is not gated (reference §6.2), so evaluating ``createItem`` or
/// ``createKey`` succeeds without a prompt.
public enum LAAccessControlOperation: Int, Sendable, Hashable {
    /// Storing a new item under the access control.
    case createItem = 0
    /// Reading the item's secret.
    case useItem = 1
    /// Making a key under the access control.
    case createKey = 2
    /// Signing with the private key.
    case useKeySign = 3
    /// Decrypting with the private key.
    case useKeyDecrypt = 4
    /// A key exchange with the private key.
    case useKeyKeyExchange = 5
}
