import Foundation
import Logging

/// The diagnostics level chosen by `COFFER_LOG` (`trace`, `debug`, `info`, `notice`, `warning`,
/// `error`, `critical`; default `warning`). Diagnostics go to standard error and never carry secrets.
public enum DiagnosticsLevel {
    /// The level `COFFER_LOG` names, or `warning` when it is unset or unknown.
    public static func fromEnvironment(_ environment: [String: String]) -> Logger.Level {
        environment["COFFER_LOG"].flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? .warning
    }

    /// The level `COFFER_LOG` names in this process's environment (read with `getenv`: building
    /// `ProcessInfo`'s whole environment dictionary costs more at each start than the rest of this).
    public static func fromEnvironment() -> Logger.Level {
        guard let value = getenv("COFFER_LOG") else { return .warning }
        return fromEnvironment(["COFFER_LOG": String(cString: value)])
    }

    /// A logger for Coffer's libraries: standard error at the `COFFER_LOG` level, whatever the host
    /// application did with swift-log's global bootstrap (so an app that never configures logging does
    /// not get Coffer's diagnostics on its standard output).
    public static func logger(label: String) -> Logger {
        let level = fromEnvironment()
        return Logger(label: label) { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
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
