import Foundation
import KeychainModel
import KeychainOperations
import KeychainService

/// The audit records of what the daemon does itself rather than through the keychain service: owner proofs at the
/// prompt agent, changes to the sync account's devices, and idle keychains it locks.
enum DaemonAuditRecords {
    /// A sync account request's record, or nil when it changed no device (a list of the devices).
    static func syncChange(_ request: SyncAccountRequest, caller: CallerContext, answer: Response) -> AuditRecord? {
        let device: SyncDeviceSummary? = if case .syncAccount(.device(let device)) = answer { device } else { nil }
        guard let change = SyncDeviceChange(request, device: device) else { return nil }
        return .syncDeviceChange(change, caller: caller.identity, accessGroups: caller.groupList, status: answer.auditStatus)
    }

    /// An idle keychain the daemon locked.
    static func idleLock(uid: UInt32) -> AuditRecord {
        AuditRecord(
            time: Date(), event: .locked, operation: "lock", caller: CallerIdentity(uid: uid, kind: .keychain), status: 0,
            detail: "locked after being idle")
    }
}
