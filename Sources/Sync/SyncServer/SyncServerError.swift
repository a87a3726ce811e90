import Foundation

/// Why the sync server refused or failed: each case names what to do about it, and none holds a password.
public enum SyncServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The database's sync schema is newer than this Coffer knows (a newer Coffer prepared it).
    case schemaTooNew(found: Int, known: Int)
    /// The database has no sync schema: `coffer sync server init` prepares it.
    case notInitialized
    /// The connecting role may not do this (for example, create account roles).
    case notPermitted(String)
    /// PostgreSQL answered with an error (its SQLSTATE and message; bound values are never included).
    case server(sqlState: String, message: String)
    /// The server could not be reached or the connection broke.
    case connection(String)
    /// The account has no such zone.
    case unknownZone(UUID)

    public var description: String {
        switch self {
        case .schemaTooNew(let found, let known):
            "the database's sync schema is version \(found), newer than this Coffer's \(known): update Coffer"
        case .notInitialized: "the database has no Coffer sync schema: run `coffer sync server init` on it first"
        case .notPermitted(let what): "the server refused: \(what)"
        case .server(let state, let message): "PostgreSQL error \(state): \(message)"
        case .connection(let reason): "cannot reach the sync server: \(reason)"
        case .unknownZone(let zone): "the account has no zone \(zone)"
        }
    }
}
