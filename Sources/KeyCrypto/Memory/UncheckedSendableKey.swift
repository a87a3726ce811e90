/// A swift-crypto RSA encryption key, which swift-crypto does not mark `Sendable`.
///
/// The key is never changed after it is made, and BoringSSL's RSA objects may be used from several threads
/// at once (their blinding and Montgomery caches are locked), so sharing it is safe.
struct UncheckedSendableKey<Key>: @unchecked Sendable {
    /// The key.
    let key: Key
}
