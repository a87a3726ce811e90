import Foundation
import Security

/// A set of SPKI SHA-256 pins with backup pins and an expiry, as OWASP's mobile security guide recommends and as
/// HPKP (RFC 7469) specified.
///
/// A chain passes when any of its certificates (leaf, intermediate or anchor) carries a pinned key. Pin the key you
/// serve today and at least one backup key that is not in use yet (kept offline, or your CA's next intermediate):
/// when the current key must be replaced, the backup lets the new chain pass without an update of every client.
/// So a set needs at least two distinct pins; ``requireBackupPin(notIn:)`` also checks, against the chain the
/// server presents today, that at least one pin is not in it (HPKP's rule).
///
/// ## Expiry: the set fails open
/// After ``expiration`` the set no longer enforces: ``check(chain:at:)`` answers ``PinCheck/notEnforced(expiredAt:)``
/// and the connection is decided by trust evaluation alone. This is HPKP's choice (pins expire with their max-age):
/// a client that was never updated must not be cut off from a server whose keys changed after the set was made. The
/// price is that an attacker with a certificate trusted by the anchors is no longer stopped after that date; ship a
/// new set before the old one expires.
///
/// ## Why it lives in CofferTLS
/// Apple's Security framework has no pin set (pinning on Apple platforms is `NSPinnedDomains` in an app's
/// Info.plist, or the app's own code), so this is not in Coffer's `Security` module, which keeps to Apple's names.
/// It takes the `Security` module's `SecTrust` and `SecCertificate` as inputs, and CofferTLS's peer verification
/// uses it for swift-nio-ssl connections.
public struct PinSet: Sendable, Hashable {
    /// The pinned keys.
    public let pins: Set<SPKIPin>
    /// The moment from which the set no longer enforces (see "Expiry: the set fails open").
    public let expiration: Date

    /// A set of `pins` enforced until `expiration`; ``PinSetError/Code/noBackupPin`` with fewer than two distinct
    /// pins (one key and at least one backup).
    public init(pins: some Sequence<SPKIPin>, expiration: Date) throws(PinSetError) {
        let distinct = Set(pins)
        guard distinct.count >= 2 else {
            throw PinSetError(
                .noBackupPin,
                "a pin set needs at least two distinct pins, the key in use and a backup key not in use yet; it has \(distinct.count)")
        }
        self.pins = distinct
        self.expiration = expiration
    }

    /// A set of pins written in base64 (HPKP's `pin-sha256` values), enforced until `expiration`.
    public init(base64SHA256 pins: [String], expiration: Date) throws(PinSetError) {
        var parsed: [SPKIPin] = []
        for pin in pins { parsed.append(try SPKIPin(base64: pin)) }
        try self.init(pins: parsed, expiration: expiration)
    }

    /// Whether the set enforces at `date`: before ``expiration``.
    public func isEnforced(at date: Date = Date()) -> Bool { date < expiration }

    /// The pins that name no key of `chain`: the backups, when `chain` is what the server presents today.
    public func backupPins(notIn chain: [SecCertificate]) -> Set<SPKIPin> {
        pins.subtracting(chain.compactMap { try? SPKIPin(certificate: $0) })
    }

    /// Checks HPKP's rule against the chain the server presents today: at least one pin must name a key that is not
    /// in it, so that losing every key of the chain still leaves a way to pass. ``PinSetError/Code/noBackupPin``
    /// otherwise. Run it where the set is configured (a start-up check, a test), not per connection.
    public func requireBackupPin(notIn chain: [SecCertificate]) throws(PinSetError) {
        guard backupPins(notIn: chain).isEmpty else { return }
        throw PinSetError(.noBackupPin, "every pin names a key of the chain given: the set has no backup pin")
    }
}
