import Crypto
import Foundation
import SyncFormat
import SyncServer

/// Founding an account and joining one: the device log entries, the account key shares, and what the device keeps.
enum SyncEnrollment {
    /// Founds the account: the device adds itself (the anchor) and the recovery key's device, and shares the first
    /// account key with both. Refused when the account already has a log.
    static func found(
        session: SyncServerSession, endpoint: ServerEndpoint, password: String, deviceName: String
    ) async throws(SyncError) -> (LocalAccount, RecoveryKey) {
        guard try await SyncError.server({ try await session.deviceLog() }).isEmpty else { throw .accountInUse }
        do {
            let device = try DeviceIdentity(name: deviceName)
            let founding = try DeviceLogEntry(position: 1, previousHash: Data(count: 32), change: .add(device.publicIdentity), signedBy: device)
            let recovery = RecoveryKey(anchor: founding.hash)
            let recoveryDevice = try recovery.device()
            let second = try DeviceLogEntry(position: 2, previousHash: founding.hash, change: .add(recoveryDevice.publicIdentity), signedBy: device)
            guard try await SyncError.server({ try await session.appendDeviceLog(position: 1, entry: founding.encoded) }) else { throw SyncError.accountInUse }
            guard try await SyncError.server({ try await session.appendDeviceLog(position: 2, entry: second.encoded) }) else {
                throw SyncError.untrustedServer("another device wrote to the new account's log")
            }
            let keys = AccountKeys.new()
            try await SyncError.server { try await session.createZone(AccountKeys.shareZone) }
            for member in [device.publicIdentity, recoveryDevice.publicIdentity] {
                try await share(keys, version: 1, to: member, session: session)
            }
            let account = LocalAccount(
                endpoint: endpoint, password: password, device: device, keys: keys, anchor: founding.hash, head: (2, second.hash))
            return (account, recovery)
        } catch let error as SyncError {
            throw error
        } catch {
            throw .damaged("cannot make the device's keys: \(error)")
        }
    }

    /// Joins the account `recoveryKey` belongs to: its device, trusted in the log, adds this one and shares it every
    /// account key.
    static func join(
        session: SyncServerSession, endpoint: ServerEndpoint, password: String, deviceName: String, recoveryKey: RecoveryKey
    ) async throws(SyncError) -> LocalAccount {
        let raw = try await SyncError.server { try await session.deviceLog() }
        do {
            let entries = try raw.map { try DeviceLogEntry(encoded: $0.entry) }
            guard let anchor = entries.first?.hash, recoveryKey.belongs(to: anchor) else {
                throw SyncError.untrustedServer("this recovery key belongs to another account than the server's")
            }
            let log = try DeviceLog(replaying: entries, anchor: anchor)
            let recoveryDevice = try recoveryKey.device()
            guard log.trusted[recoveryDevice.publicIdentity.id] != nil else {
                throw SyncError.untrustedServer("the account no longer trusts this recovery key")
            }
            var keys: [Int64: SymmetricKey] = [:]
            for (version, share) in try await SyncError.server({
                try await session.keyShares(zone: AccountKeys.shareZone, device: recoveryDevice.publicIdentity.id)
            }) {
                let key = try recoveryDevice.openKeyShare(share, zone: AccountKeys.shareZone, keyVersion: version)
                key.withUnsafeBytes { keys[version] = SymmetricKey(data: $0) }
            }
            let accountKeys = try AccountKeys(versions: keys)
            let device = try DeviceIdentity(name: deviceName)
            let head = try await add(device.publicIdentity, after: log.head, signedBy: recoveryDevice, session: session)
            for version in accountKeys.versions.keys.sorted() { try await share(accountKeys, version: version, to: device.publicIdentity, session: session) }
            return LocalAccount(endpoint: endpoint, password: password, device: device, keys: accountKeys, anchor: anchor, head: head)
        } catch let error as SyncError {
            throw error
        } catch let error as DeviceLogError {
            throw .untrustedServer("the device log: \(error)")
        } catch let error as KeyShareError {
            throw .untrustedServer("an account key share does not open (\(error))")
        } catch {
            throw .damaged("cannot make the device's keys: \(error)")
        }
    }

    /// Completes a join approved with a pairing code: the log must start at `anchor` and hold `head` (as the code's
    /// answer says), trust this device, and have shared it the account keys.
    static func joined(
        session: SyncServerSession, endpoint: ServerEndpoint, password: String, device: DeviceIdentity, anchor: Data,
        head: (position: Int64, hash: Data)
    ) async throws(SyncError) -> LocalAccount {
        let raw = try await SyncError.server { try await session.deviceLog() }
        do {
            let log = try DeviceLog(replaying: try raw.map { try DeviceLogEntry(encoded: $0.entry) }, anchor: anchor, knownHead: head)
            guard log.trusted[device.publicIdentity.id] != nil else {
                throw SyncError.untrustedServer("the device log does not trust this device")
            }
            var keys: [Int64: SymmetricKey] = [:]
            for (version, share) in try await SyncError.server({
                try await session.keyShares(zone: AccountKeys.shareZone, device: device.publicIdentity.id)
            }) {
                try device.openKeyShare(share, zone: AccountKeys.shareZone, keyVersion: version).withUnsafeBytes { keys[version] = SymmetricKey(data: $0) }
            }
            return LocalAccount(endpoint: endpoint, password: password, device: device, keys: try AccountKeys(versions: keys), anchor: anchor, head: log.head)
        } catch let error as SyncError {
            throw error
        } catch let error as DeviceLogError {
            throw .untrustedServer("the device log: \(error)")
        } catch {
            throw .untrustedServer("an account key share does not open (\(error))")
        }
    }

    /// Appends an entry adding `device` after `head`; returns the new head. A taken position (another device wrote
    /// first) is an error: run again.
    static func add(
        _ device: DevicePublicIdentity, after head: (position: Int64, hash: Data), signedBy signer: DeviceIdentity, session: SyncServerSession
    ) async throws -> (position: Int64, hash: Data) {
        let entry = try DeviceLogEntry(position: head.position + 1, previousHash: head.hash, change: .add(device), signedBy: signer)
        guard try await SyncError.server({ try await session.appendDeviceLog(position: entry.position, entry: entry.encoded) }) else {
            throw SyncError.server("another device changed the account's device log at the same time: try again")
        }
        return (entry.position, entry.hash)
    }

    /// Seals the account key at `version` to `device` and stores the share.
    static func share(_ keys: AccountKeys, version: Int64, to device: DevicePublicIdentity, session: SyncServerSession) async throws {
        guard let key = keys.shareable(version) else { throw SyncError.damaged("no account key at version \(version)") }
        let share = try KeyShare.seal(key, zone: AccountKeys.shareZone, to: device)
        try await SyncError.server { try await session.putKeyShare(zone: AccountKeys.shareZone, keyVersion: version, device: device.id, share: share) }
    }

}
