import Foundation

/// An account's device log, replayed from the server's entries: which devices the account trusts.
///
/// The server stores the log and could forge, reorder, drop or replace entries; replaying refuses all of these. Each
/// entry must sit at the next position, name the previous entry's hash, and be signed by a device trusted at that
/// point; the first must be the founding device adding itself, and must be the entry this device knows as the
/// account's anchor (learned when it set the account up or joined it, through the pairing code, never from the
/// server). A log shorter than what this device has already seen (`knownHead`) is a rollback and is refused too.
public struct DeviceLog: Sendable {
    /// The devices trusted after the last entry, by id.
    public let trusted: [UUID: DevicePublicIdentity]
    /// The last entry's position and hash.
    public let head: (position: Int64, hash: Data)

    /// Replays `entries` (in order from position 1). `anchor` is the hash of the account's first entry; `knownHead`,
    /// when given, is a position and hash this device verified before, which the log must still contain.
    public init(replaying entries: [DeviceLogEntry], anchor: Data, knownHead: (position: Int64, hash: Data)? = nil) throws(DeviceLogError) {
        guard let first = entries.first else { throw .empty }
        guard first.hash == anchor else { throw .foreignAnchor }
        var trusted: [UUID: DevicePublicIdentity] = [:]
        var previousHash = Data(count: 32)
        for (offset, entry) in entries.enumerated() {
            let position = Int64(offset + 1)
            guard entry.position == position, entry.previousHash == previousHash else { throw .brokenChain(position: position) }
            let signer: DevicePublicIdentity?
            if position == 1 {
                guard case .add(let founder) = entry.change, founder.id == entry.signer else { throw .brokenChain(position: 1) }
                signer = founder
            } else {
                signer = trusted[entry.signer]
            }
            guard let signer, entry.isSigned(by: signer) else { throw .untrustedSigner(position: position) }
            switch entry.change {
            case .add(let device):
                guard trusted[device.id] == nil else { throw .duplicateDevice(position: position) }
                trusted[device.id] = device
            case .remove(let device):
                guard trusted.removeValue(forKey: device) != nil else { throw .unknownDevice(position: position) }
            }
            previousHash = entry.hash
            if let knownHead, knownHead.position == position, knownHead.hash != previousHash { throw .rolledBack }
        }
        if let knownHead, knownHead.position > Int64(entries.count) { throw .rolledBack }
        self.trusted = trusted
        head = (Int64(entries.count), previousHash)
    }
}

/// Why a device log was refused: the device then trusts nothing new and reports it.
public enum DeviceLogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An entry is not in this format.
    case malformed
    /// The server returned no entries.
    case empty
    /// The first entry is not the account's anchor this device knows: another account, or a log the server replaced.
    case foreignAnchor
    /// An entry is out of place or does not name the previous entry's hash.
    case brokenChain(position: Int64)
    /// An entry is not signed by a device trusted at that point.
    case untrustedSigner(position: Int64)
    /// An entry adds a device already trusted.
    case duplicateDevice(position: Int64)
    /// An entry removes a device not trusted.
    case unknownDevice(position: Int64)
    /// The log lacks entries this device saw before, or has other ones in their place.
    case rolledBack

    public var description: String {
        switch self {
        case .malformed: "the server sent a device log entry that is not in Coffer's format"
        case .empty: "the server sent an empty device log"
        case .foreignAnchor: "the device log does not start with this account's first device: refused"
        case .brokenChain(let position): "the device log is broken at entry \(position): refused"
        case .untrustedSigner(let position): "device log entry \(position) is not signed by a trusted device: refused"
        case .duplicateDevice(let position): "device log entry \(position) adds a device already trusted: refused"
        case .unknownDevice(let position): "device log entry \(position) removes a device that is not trusted: refused"
        case .rolledBack: "the server's device log lacks entries this device has seen (rolled back): refused"
        }
    }
}
