import KeychainModel
import Query

/// Why a ``Keychain`` call failed: Apple's status for code, and a diagnostic for people.
///
/// Compare ``status`` (or ``code``) in code:
///
/// ```swift
/// do {
///     try await keychain.add(item)
/// } catch where error.status == .duplicateItem {
///     try await keychain.update(matching: query, changes: changes)
/// }
/// ```
///
/// ``description`` names the operation, Apple's status name and code, what it means, and the query
/// that failed. It is safe to log: every secret in the query (`kSecValueData` and the other secret
/// fields) is shown only as `<redacted N bytes>`, and passcodes never appear.
public struct KeychainError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Apple's status (`OSStatus`), such as `KeychainStatus.duplicateItem`.
    public let status: KeychainStatus
    /// The operation that failed.
    public let operation: Operation
    /// The query dictionary as the keychain received it, rendered with secrets redacted; nil for
    /// operations without a query (lock, unlock, status).
    public let redactedQuery: String?
    /// For updates, the `attributesToUpdate` dictionary, rendered with secrets redacted.
    public let redactedChanges: String?
    /// More detail when there is some: what could not be encoded or decoded, why an unlock failed.
    public let reason: String?

    /// An error with its context.
    public init(
        status: KeychainStatus, operation: Operation, redactedQuery: String? = nil, redactedChanges: String? = nil,
        reason: String? = nil
    ) {
        self.status = status
        self.operation = operation
        self.redactedQuery = redactedQuery
        self.redactedChanges = redactedChanges
        self.reason = reason
    }

    /// An error for a dictionary call, rendering the dictionaries with their secrets redacted.
    init(
        status: KeychainStatus, operation: Operation, query: QueryDictionary, changes: QueryDictionary? = nil,
        reason: String? = nil
    ) {
        self.init(
            status: status, operation: operation, redactedQuery: RedactedRendering.render(query),
            redactedChanges: changes.map(RedactedRendering.render), reason: reason)
    }

    /// An error for a dictionary call that the keychain refused: its status and reason, and the dictionaries
    /// with their secrets redacted.
    init(_ failure: KeychainFailure, operation: Operation, query: QueryDictionary, changes: QueryDictionary? = nil) {
        self.init(
            status: failure.status, operation: operation, query: query, changes: changes,
            reason: failure.reason.map(Self.sentence))
    }

    /// A reason as a sentence: capitalised (unless it starts with an identifier such as `kSecValueData`),
    /// with a full stop.
    static func sentence(_ reason: String) -> String {
        let characters = Array(reason.prefix(2))
        let startsWithIdentifier = characters.count == 2 && characters[1].isUppercase
        let text = startsWithIdentifier ? reason : reason.prefix(1).uppercased() + reason.dropFirst()
        return text.hasSuffix(".") ? text : text + "."
    }

    /// Apple's `OSStatus` value, such as -25299.
    public var code: Int32 { status.code }
    /// Apple's constant name, such as `errSecDuplicateItem`.
    public var name: String { status.name }
    /// What the status means and, where it helps, what to do.
    public var explanation: String { status.explanation }

    /// `<operation> failed: <name> (<code>): <explanation>`, then the reason and the redacted query.
    public var description: String {
        var text = "\(operation) failed: \(name) (\(code)): \(explanation)"
        if let reason { text += " \(reason)" }
        if let redactedQuery { text += " Query: \(redactedQuery)" }
        if let redactedChanges { text += " Changes: \(redactedChanges)" }
        return text
    }
}

extension KeychainError {
    /// What the ``Keychain`` was doing.
    public enum Operation: String, Sendable, Hashable, CustomStringConvertible {
        /// Adding an item (`SecItemAdd`).
        case add = "SecItemAdd"
        /// Reading items (`SecItemCopyMatching`).
        case copyMatching = "SecItemCopyMatching"
        /// Updating items (`SecItemUpdate`).
        case update = "SecItemUpdate"
        /// Deleting items (`SecItemDelete`).
        case delete = "SecItemDelete"
        /// Encoding a value before storing it.
        case encode = "encoding a value"
        /// Decoding a stored value.
        case decode = "decoding a value"
        /// Locking the keychain.
        case lock = "locking the keychain"
        /// Unlocking the keychain.
        case unlock = "unlocking the keychain"
        /// Proving the person is there (`LAContext.evaluatePolicy`).
        case authenticate = "authenticating"
        /// Reading the lock state.
        case status = "reading the keychain status"
        /// Generating a key (`SecKeyCreateRandomKey`).
        case generateKey = "SecKeyCreateRandomKey"
        /// Reading a key from its external representation (`SecKeyCreateWithData`).
        case importKey = "SecKeyCreateWithData"
        /// Exporting a key (`SecKeyCopyExternalRepresentation`).
        case exportKey = "SecKeyCopyExternalRepresentation"
        /// Signing (`SecKeyCreateSignature`).
        case sign = "SecKeyCreateSignature"
        /// Verifying a signature (`SecKeyVerifySignature`).
        case verify = "SecKeyVerifySignature"
        /// Encrypting (`SecKeyCreateEncryptedData`).
        case encrypt = "SecKeyCreateEncryptedData"
        /// Decrypting (`SecKeyCreateDecryptedData`).
        case decrypt = "SecKeyCreateDecryptedData"
        /// Agreeing a key (`SecKeyCopyKeyExchangeResult`).
        case keyExchange = "SecKeyCopyKeyExchangeResult"
        /// Recovering a shared secret with an ML-KEM key the keychain keeps.
        case decapsulate = "decapsulating with a post-quantum key"
        /// Reading a certificate from its DER or PEM (`SecCertificateCreateWithData`).
        case readCertificate = "SecCertificateCreateWithData"
        /// Reading what the keychain knows of its sync.
        case syncState = "reading the sync state"
        /// Running sync.
        case syncNow = "syncing with the other devices"
        /// Reading the audit journal.
        case auditRecords = "reading the audit journal"

        /// The raw value: Apple's function name for item calls, a phrase otherwise.
        public var description: String { rawValue }
    }
}
