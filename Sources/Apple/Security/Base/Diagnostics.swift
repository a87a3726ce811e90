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

    /// Whether ``logger`` prints debug messages. Its level is fixed when it is made, so this is read once: asking
    /// the logger copies its handler at every call.
    static let logsDebug = logger.logLevel <= .debug

    /// Logs one call and its outcome at debug level; the message is built only when it is printed.
    static func log(
        _ call: @autoclosure () -> String, status: KeychainStatus, reason: @autoclosure () -> String? = nil,
        result: @autoclosure () -> String? = nil
    ) {
        guard logsDebug else { return }
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

    /// `{key: value, …}`, keys sorted, secrets redacted (``RedactedRendering``, shared with the Swift API).
    static func render(_ dictionary: QueryDictionary) -> String { RedactedRendering.render(dictionary) }

    /// One value, with the secrets inside it redacted.
    static func render(_ value: KeychainValue) -> String { RedactedRendering.render(value) }

    /// A call's result: a bare data value is the secret `kSecReturnData` asked for.
    static func render(result: KeychainValue) -> String { RedactedRendering.render(result: result) }
}
