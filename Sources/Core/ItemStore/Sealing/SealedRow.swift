import Foundation

/// The stored bytes of a row other than its identity; see ``ItemCrypto`` for the format.
struct SealedRow: Sendable {
    /// HMAC of the uniqueness bytes.
    var uniqueDigest: Data
    /// The item key, wrapped by the keyring.
    var wrappedKey: Data
    /// version ‖ nonce ‖ ciphertext ‖ tag of the attributes.
    var attributes: Data
    /// version ‖ nonce ‖ ciphertext ‖ tag of the secret.
    var secret: Data
    /// HMAC over everything else in the row.
    var rowTag: Data
    /// The blind-index columns, in the order of the table's ``TableSchema/codes``; nil = NULL.
    var indexes: [Data?]
}
