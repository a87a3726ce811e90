import Foundation
import SyncFormat
import SyncServer

/// A device of the account, as the verified device log lists it.
public struct SyncDevice: Sendable, Equatable, Codable {
    /// Its id.
    public let id: UUID
    /// Its name.
    public let name: String
    /// Whether it is this device.
    public let isThisDevice: Bool
    /// Whether it is the recovery key's device.
    public let isRecoveryKey: Bool
}

extension KeychainSync {
    /// The devices the account trusts, from the device log as this device verifies it.
    public func devices() async throws(SyncError) -> [SyncDevice] {
        let account = try LocalAccount.load(from: engine)
        return try await connected(account.endpoint, account.password) { (session) async throws(SyncError) in
            var replica = SyncReplica(engine: engine, account: account, session: session, logger: logger, workers: workers)
            let log = try await replica.refreshTrust()
            let me = account.device.publicIdentity.id
            return log.trusted.values.map { device in
                SyncDevice(
                    id: device.id, name: device.name, isThisDevice: device.id == me,
                    isRecoveryKey: device.name == RecoveryKey.deviceName)
            }.sorted { ($0.name, $0.id.uuidString) < ($1.name, $1.id.uuidString) }
        }
    }

    /// Removes the device named `nameOrID` (its name, or its id) from the account: a log entry signed by this device,
    /// then a new account key shared to every device that stays, so the removed one reads nothing written after.
    /// Its cursors go too, so it no longer holds tombstones back. Returns the device removed.
    public func removeDevice(_ nameOrID: String) async throws(SyncError) -> SyncDevice {
        var account = try LocalAccount.load(from: engine)
        let (removed, updated) = try await connected(account.endpoint, account.password) { (session) async throws(SyncError) in
            var replica = SyncReplica(engine: engine, account: account, session: session, logger: logger, workers: workers)
            let log = try await replica.refreshTrust()
            let matches = log.trusted.values.filter { $0.name == nameOrID || $0.id.uuidString.lowercased() == nameOrID.lowercased() }
            guard let device = matches.first else { throw .invalidCode("the account has no device named \(nameOrID)") }
            guard matches.count == 1 else { throw .invalidCode("several devices are named \(nameOrID): give the id (`coffer sync devices`)") }
            guard device.id != replica.account.device.publicIdentity.id else {
                throw .invalidCode("this is the device you are on: remove it from another device, or stop syncing here with `coffer sync leave`")
            }
            var updated = replica.account
            do {
                let entry = try DeviceLogEntry(
                    position: log.head.position + 1, previousHash: log.head.hash, change: .remove(device.id), signedBy: updated.device)
                guard try await SyncError.server({ try await session.appendDeviceLog(position: entry.position, entry: entry.encoded) }) else {
                    throw SyncError.server("another device changed the account's device log at the same time: try again")
                }
                updated.head = (entry.position, entry.hash)
                let version = updated.keys.rotate()
                for staying in log.trusted.values where staying.id != device.id {
                    try await SyncEnrollment.share(updated.keys, version: version, to: staying, session: session)
                }
                try await SyncError.server { try await session.removeCursors(device: device.id) }
            } catch {
                throw SyncError.converted(error)
            }
            let removed = SyncDevice(id: device.id, name: device.name, isThisDevice: false, isRecoveryKey: device.name == RecoveryKey.deviceName)
            return (removed, updated)
        }
        account = updated
        try SyncError.mapping { try engine.setSyncSettings(try account.trustSettings(sealedBy: engine).mapValues { $0 }) }
        return removed
    }
}
