import Foundation
import SyncFormat
import SyncServer

/// A device waiting to be approved into an account: the code to show, and what completing the join needs.
public struct PendingJoin: Sendable {
    /// The code the person types on a trusted device (`coffer sync approve`).
    public let code: PairingCode
    let device: DeviceIdentity
    let endpoint: ServerEndpoint
    let password: String
}

extension KeychainSync {
    /// Asks to join the account on `server`: leaves this device's identity there under the new code, authenticated by
    /// it. Show ``PendingJoin/code``, then wait with ``completeJoin(_:timeout:)``.
    public func requestToJoin(server: ServerEndpoint, password: String, deviceName: String) async throws(SyncError) -> PendingJoin {
        guard try !isSetUp else { throw .alreadySetUp }
        let device: DeviceIdentity
        do {
            device = try DeviceIdentity(name: deviceName)
        } catch {
            throw .damaged("cannot make the device's keys: \(error)")
        }
        let code = PairingCode()
        try await connected(server, password) { (session) async throws(SyncError) in
            guard try await !SyncError.server({ try await session.deviceLog() }).isEmpty else {
                throw .invalidCode("the account has no devices yet: set it up with `coffer sync setup` instead")
            }
            try await SyncError.server { try await session.putPairingRequest(code.pairing, request: code.request(for: device.publicIdentity)) }
        }
        return PendingJoin(code: code, device: device, endpoint: server, password: password)
    }

    /// Waits until a trusted device approves `pending` (polling the server), then checks the answer against the code
    /// and the device log, opens the account keys shared to this device, and starts syncing.
    public func completeJoin(_ pending: PendingJoin, timeout: Duration = .seconds(PairingCode.lifetime)) async throws(SyncError) {
        let pairing = pending.code.pairing
        let account = try await connected(pending.endpoint, pending.password) { (session) async throws(SyncError) -> LocalAccount in
            let deadline = ContinuousClock.now.advanced(by: timeout)
            var response: Data?
            while response == nil {
                guard let found = try await SyncError.server({ try await session.pairing(pairing) }) else {
                    throw .invalidCode("the pairing request is gone from the server (refused, or expired): run `coffer sync join` again")
                }
                response = found.response
                if response == nil {
                    guard ContinuousClock.now < deadline else {
                        try? await session.removePairing(pairing)
                        throw .invalidCode("no trusted device approved the code in time: run `coffer sync join` again")
                    }
                    try? await Task.sleep(for: .milliseconds(250))
                }
            }
            let (anchor, head) = try pending.code.accept(response: response!)
            try? await session.removePairing(pairing)
            return try await SyncEnrollment.joined(
                session: session, endpoint: pending.endpoint, password: pending.password, device: pending.device, anchor: anchor, head: head)
        }
        try SyncError.mapping { try engine.startSyncing(settings: try account.settings(sealedBy: engine)) }
    }

    /// Approves the device waiting with `code`: adds it to the device log, signed by this device, shares it every
    /// account key, and answers it with the account's anchor and the log's new head. Returns the device added.
    ///
    /// Whoever calls this must have checked that the person is this keychain's owner (the CLI asks for the passcode).
    public func approve(code: PairingCode) async throws(SyncError) -> DevicePublicIdentity {
        var account = try LocalAccount.load(from: engine)
        let (added, head) = try await connected(account.endpoint, account.password) { (session) async throws(SyncError) in
            var replica = SyncReplica(engine: engine, account: account, session: session, logger: logger, workers: workers)
            let log = try await replica.refreshTrust()
            guard let pairing = try await SyncError.server({ try await session.pairing(code.pairing) }) else {
                throw .invalidCode("no device is waiting with this code: check it, or run `coffer sync join` again on the new device")
            }
            guard pairing.response == nil else { throw .invalidCode("this code was approved already") }
            guard pairing.age <= PairingCode.lifetime else { throw .invalidCode("this code expired: run `coffer sync join` again") }
            let device = try code.device(fromRequest: pairing.request)
            guard log.trusted[device.id] == nil else { throw .invalidCode("that device is in the account already") }
            do {
                let head = try await SyncEnrollment.add(device, after: log.head, signedBy: replica.account.device, session: session)
                for version in replica.account.keys.versions.keys.sorted() {
                    try await SyncEnrollment.share(replica.account.keys, version: version, to: device, session: session)
                }
                guard
                    try await SyncError.server({
                        try await session.answerPairing(code.pairing, response: code.response(anchor: replica.account.anchor, head: head))
                    })
                else { throw SyncError.invalidCode("this code was approved already") }
                return (device, head)
            } catch {
                throw SyncError.converted(error)
            }
        }
        account.head = head
        try SyncError.mapping { try engine.setSyncSettings(try account.trustSettings(sealedBy: engine).mapValues { $0 }) }
        return added
    }
}
