import Foundation
import KeychainModel

/// A change of a keychain's sync account's devices, as the audit journal records it: the same words whether cofferd
/// made it (``Request/syncAccount(_:)``) or `coffer sync` on a keychain it opened itself.
public enum SyncDeviceChange: Sendable, Equatable {
    case setUp, joinedWithRecoveryKey, askedToJoin, joinedOnceApproved, left
    /// A device approved or removed, by its name and id when known.
    case approved(device: String?), removed(device: String?)

    /// The change `request` makes, given the device its answer names; nil for a request that changes none.
    public init?(_ request: SyncAccountRequest, device: SyncDeviceSummary?) {
        let named = device.map { "device \($0.name) (\($0.id))" }
        switch request {
        case .setUp: self = .setUp
        case .join: self = .joinedWithRecoveryKey
        case .requestToJoin: self = .askedToJoin
        case .awaitJoin: self = .joinedOnceApproved
        case .approve: self = .approved(device: named)
        case .removeDevice: self = .removed(device: named)
        case .leave: self = .left
        case .devices: return nil
        }
    }

    /// The record's detail.
    public var words: String {
        switch self {
        case .setUp: "set up an account with this device"
        case .joinedWithRecoveryKey: "joined an account with its recovery key"
        case .askedToJoin: "asked to join an account"
        case .joinedOnceApproved: "joined an account once approved"
        case .approved(let device): "approved \(device ?? "a device")"
        case .removed(let device): "removed \(device ?? "a device")"
        case .left: "left the account"
        }
    }
}

extension AuditRecord {
    /// The record of `change`, made by `caller`, ended with `status`.
    public static func syncDeviceChange(_ change: SyncDeviceChange, caller: CallerIdentity, accessGroups: [String] = [], status: Int32) -> AuditRecord {
        AuditRecord(
            time: Date(), event: .syncDeviceChanged, operation: "syncAccount", caller: caller, accessGroups: accessGroups, status: status,
            detail: change.words)
    }
}
