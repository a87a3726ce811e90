import CofferDiagnostics
import Foundation
import KeychainModel
import Logging
import Query

/// The `Security` module's diagnostics: with `COFFER_LOG=debug`, every call is written to standard error
/// with its dictionary (every secret value replaced by its length) and the status it returned, by name.
///
/// A library must not configure swift-log for its host program, so this logger has its own standard-error
/// handler at the `COFFER_LOG` level (default `warning`, which prints nothing here).
enum Diagnostics {
    /// The module's logger, made on first use.
    static let logger: Logger = {
        let level = DiagnosticsLevel.fromEnvironment()
        return Logger(label: "coffer.security") { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }()

    /// Logs one call and its outcome at debug level; the message is built only when it is printed.
    static func log(
        _ call: @autoclosure () -> String, status: KeychainStatus, reason: @autoclosure () -> String? = nil,
        result: @autoclosure () -> String? = nil
    ) {
        logger.debug("\(line(call(), status: status, reason: reason(), result: result()))")
    }

    /// `call → name (code)`, with the explanation and the keychain's reason for failures, and the redacted
    /// result for successes.
    static func line(_ call: String, status: KeychainStatus, reason: String? = nil, result: String?) -> String {
        var text = "\(call) → \(status.name) (\(status.code))"
        if !status.isSuccess { text += ": \(status.explanation)" }
        if let reason { text += " Reason: \(reason)" }
        if let result { text += " result: \(result)" }
        return text
    }

    /// `{key: value, …}`, keys sorted, secrets redacted.
    static func render(_ dictionary: QueryDictionary) -> String {
        var entries: [String] = []
        for (key, value) in dictionary.entries {
            let label = key.stringValue ?? render(key)
            entries.append("\(label): " + (isSecret(key.stringValue) ? redacted(value) : render(value)))
        }
        return "{" + entries.sorted().joined(separator: ", ") + "}"
    }

    /// One value; dictionaries inside it are redacted too. A bare data result is a secret (`kSecReturnData`).
    static func render(result: KeychainValue) -> String {
        switch result {
        case .data: redacted(result)
        case .array(let elements): "[" + elements.map { render(result: $0) }.joined(separator: ", ") + "]"
        default: render(result)
        }
    }

    /// One value; dictionaries inside it are redacted too.
    static func render(_ value: KeychainValue) -> String {
        switch value {
        case .string(let text): return String(reflecting: text)
        case .data(let bytes): return "<\(bytes.count) bytes>"
        case .number(let number): return String(number)
        case .double(let number): return String(number)
        case .bool(let flag): return String(flag)
        case .date(let date): return date.formatted(.iso8601)
        case .null: return "null"
        case .uuid(let uuid): return uuid.uuidString
        case .array(let elements): return "[" + elements.map { render($0) }.joined(separator: ", ") + "]"
        case .dictionary(let entries):
            var keyed: [KeychainValue: KeychainValue] = [:]
            for (key, element) in entries { keyed[.string(key)] = element }
            return render(QueryDictionary(keyed))
        case .accessControl(let control): return SecAccessControl(control).description
        case .unsupported(let typeName): return "<\(typeName)>"
        }
    }

    /// Whether values under `key` are secrets: `kSecValueData`, the credential handle, and every attribute
    /// the schema marks as part of the secret (the internet-password extra data fields).
    static func isSecret(_ key: String?) -> Bool {
        guard let key else { return false }
        if key == QueryKey.valueData || key == QueryKey.useCredentialReference { return true }
        return ItemClass.allCases.contains { itemClass in
            AttributeCatalogue.descriptor(for: key, in: itemClass)?.flags.contains(.secret) == true
        }
    }

    private static func redacted(_ value: KeychainValue) -> String {
        switch value {
        case .data(let bytes): "<redacted \(bytes.count) bytes>"
        case .string(let text): "<redacted \(text.utf8.count) bytes>"
        default: "<redacted \(value.typeName)>"
        }
    }
}
