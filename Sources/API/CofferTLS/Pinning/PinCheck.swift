import Foundation

/// What checking a chain against a ``PinSet`` found.
public enum PinCheck: Sendable, Hashable {
    /// A certificate of the chain carries a pinned key: the pin, and the certificate's index (0 is the leaf).
    case matched(SPKIPin, chainIndex: Int)
    /// The pin set expired at this date and no longer enforces anything: the connection is allowed on trust
    /// evaluation alone (the set fails open, as HPKP's pins did once their max-age had passed).
    case notEnforced(expiredAt: Date)
    /// No certificate of the chain carries a pinned key.
    case noMatch
    /// The trust given to ``PinSet/check(_:at:)`` is not trusted, so its chain was not looked at.
    case trustFailed

    /// Whether the connection may go on: a match, or a set that no longer enforces.
    public var allowsConnection: Bool {
        switch self {
        case .matched, .notEnforced: true
        case .noMatch, .trustFailed: false
        }
    }
}
