import KeychainModel

/// Why a query dictionary was refused: Apple's status, the rule that decided it, the key at fault and a
/// reason in plain English.
///
/// ``status`` is exactly what Apple's `SecItem…` call returns for the query, so a caller that answers with
/// an `OSStatus` hands it on unchanged; the rest is for people. Reasons name keys by Apple's constants
/// (`kSecAttrServer`, not `srvr`) and never contain a secret: they may give a value's type or size, never
/// the contents of `kSecValueData`.
public struct QueryRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// Apple's status for the query, such as ``KeychainStatus/param`` (-50).
    public let status: KeychainStatus
    /// The rule of the keychain reference (§3.2) that decided it, such as `G4` or `U13`; nil where no numbered
    /// rule does (Coffer's size limits, the flag checks of `SecAccessControlCreateWithFlags`).
    public let rule: KeychainRule?
    /// The dictionary key at fault as the dictionary spells it, such as `srvr`; nil when no single string key is.
    public let key: String?
    /// What was wrong, such as `kSecAttrServer is not an attribute of kSecClassGenericPassword`.
    public let reason: String

    /// A rejection with Apple's `status`, the `rule` that decided it, the `key` at fault and the `reason`.
    public init(status: KeychainStatus, rule: KeychainRule?, key: String?, reason: String) {
        self.status = status
        self.rule = rule
        self.key = key
        self.reason = reason
    }

    /// The rule and the reason: `G4: kSecAttrServer is not an attribute of kSecClassGenericPassword`.
    public var message: String {
        guard let rule else { return reason }
        return "\(rule): \(reason)"
    }

    /// The message followed by Apple's status name and code: `G4: … (errSecNoSuchAttr, -25303)`.
    public var description: String { "\(message) (\(status.name), \(status.code))" }

    /// Evaluates `parse` and hands on only the status of a rejection, for callers that answer with an
    /// `OSStatus`: `try QueryRejection.statusOnly(QueryParser.parseSearch(query))`.
    @inlinable
    public static func statusOnly<Result>(
        _ parse: @autoclosure () throws(QueryRejection) -> Result
    ) throws(KeychainStatus) -> Result {
        do {
            return try parse()
        } catch {
            throw error.status
        }
    }
}
