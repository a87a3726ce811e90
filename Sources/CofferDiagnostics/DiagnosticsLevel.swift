import Foundation
import Logging

/// The diagnostics level chosen by `COFFER_LOG` (`trace`, `debug`, `info`, `notice`, `warning`,
/// `error`, `critical`; default `warning`). Diagnostics go to standard error and never carry secrets.
public enum DiagnosticsLevel {
    /// The level `COFFER_LOG` names, or `warning` when it is unset or unknown.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Logger.Level {
        environment["COFFER_LOG"].flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? .warning
    }

    /// Sets up swift-log for an executable (the CLI, the daemon): standard error, at the `COFFER_LOG` level.
    /// Call once, first thing in `main`.
    public static func bootstrapExecutable() {
        let level = fromEnvironment()
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
