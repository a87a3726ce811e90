import Foundation
import KeychainModel
import KeychainOperations
import KeychainService

/// The audit records of what the daemon does itself rather than through the keychain service: owner proofs at the
/// prompt agent, changes to the sync account's devices, and idle keychains it locks.
enum DaemonAuditRecords {
    /// A sync account request's record, or nil when it changed no device (a list of the devices).
    static func syncChange(_ request: SyncAccountRequest, caller: CallerContext, answer: Response) -> AuditRecord? {
        let detail: String
        switch request {
        case .setUp: detail = "set up an account with this device"
        case .join: detail = "joined an account with its recovery key"
        case .requestToJoin: detail = "asked to join an account"
        case .awaitJoin: detail = "joined an account once approved"
        case .approve: detail = "approved \(deviceName(in: answer) ?? "a device")"
        case .removeDevice: detail = "removed \(deviceName(in: answer) ?? "a device")"
        case .leave: detail = "left the account"
        case .devices: return nil
        }
        return AuditRecord(
            time: Date(), event: .syncDeviceChanged, operation: "syncAccount", caller: caller.identity, accessGroups: caller.groupList,
            status: answer.auditStatus, detail: detail)
    }

    /// An idle keychain the daemon locked.
    static func idleLock(uid: UInt32) -> AuditRecord {
        AuditRecord(
            time: Date(), event: .locked, operation: "lock", caller: CallerIdentity(uid: uid, kind: .keychain), status: 0,
            detail: "locked after being idle")
    }

    private static func deviceName(in answer: Response) -> String? {
        guard case .syncAccount(.device(let device)) = answer else { return nil }
        return "device \(device.name) (\(device.id))"
    }
}
