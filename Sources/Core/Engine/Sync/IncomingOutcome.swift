import Foundation

/// What applying one record pulled from the server did.
public enum IncomingOutcome: Sendable, Equatable {
    /// The record's item was added, replaced or (a tombstone) deleted here.
    case applied
    /// The record's item replaced a local change that had not been sent yet: the server's newer version won, and the
    /// local change was listed as a conflict.
    case replacedUnsentChange
    /// This device already had the record at that version (its own write, seen again).
    case alreadyCurrent
    /// The record's class is locked here: it stays queued, sealed, until the keychain is unlocked.
    case waitingForUnlock
    /// Another record had the same primary key; the one with the lower record id won on every device. `kept` says
    /// whether the arriving record won here; the loser was listed as a conflict (unless both held the same item) and
    /// its record will be deleted from the server.
    case primaryKeyConflict(incomingWon: Bool)
    /// Refused and dropped, for the reason given: a server that reported an older version than this device had
    /// seen (a rollback), or content that may not be stored here.
    case refused(String)
}
