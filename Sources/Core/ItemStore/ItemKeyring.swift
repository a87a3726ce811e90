import Crypto
import Foundation
import KeychainModel

/// Supplies the keys ``ItemStore`` needs; the engine implements it over the Keystore.
///
/// The store never sees a class key: it hands a fresh item key to ``wrapItemKey(_:protection:)``
/// and gets it back from ``unwrapItemKey(_:protection:)``. Whatever an implementation throws
/// (for example "class key unavailable because the keychain is locked") propagates **unchanged**
/// out of the ``ItemStore`` call that needed the key, so the engine can map it to an `OSStatus`.
///
/// Implementations must be thread-safe: one store is used from many threads at once.
public protocol ItemKeyring: Sendable {
    /// Wraps a per-item key under the class key of `protection`.
    func wrapItemKey(_ key: SymmetricKey, protection: ProtectionClass) throws -> Data

    /// Unwraps a per-item key that ``wrapItemKey(_:protection:)`` produced for the same class.
    func unwrapItemKey(_ wrapped: Data, protection: ProtectionClass) throws -> SymmetricKey

    /// The metadata key of `protection` (a 256-bit key); it seals item attributes, so that an
    /// attribute-only read never unwraps a per-item key.
    func metadataKey(for protection: ProtectionClass) throws -> SymmetricKey

    /// The index key: keys the blind indexes, the uniqueness digest and the row tags.
    /// Must be available in every lock state (matching and delete work while locked).
    func indexKey() throws -> SymmetricKey
}
