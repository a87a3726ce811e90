import Foundation
import KeychainModel
import KeychainOperations
import SyncClient
import SyncFormat
import SyncServer
import Synchronization

/// The daemon's answers to ``Request/syncAccount(_:)``: `coffer sync setup`, `join`, `approve`, `devices`,
/// `remove-device` and `leave`, run by cofferd over a keychain it serves (whose files its user cannot open). A join
/// through a pairing code is two requests: the code comes back at once, and the approval is awaited by the next.
struct SyncAccountSteps: Sendable {
    let sync: KeychainSync
    let pendingJoin: PendingJoinSlot
    /// Started after the account changes, so that background sync runs at once.
    let trigger: SyncTrigger

    func answer(_ request: SyncAccountRequest) async -> Response {
        do {
            return .syncAccount(try await perform(request))
        } catch let error as SyncError {
            return Self.response(error)
        } catch {
            return .failure(.param, reason: "\(error)")
        }
    }

    private func perform(_ request: SyncAccountRequest) async throws -> SyncAccountAnswer {
        switch request {
        case .setUp(let server, let password, let deviceName):
            let key = try await sync.setUp(server: try Self.endpoint(server), password: Self.text(password), deviceName: deviceName)
            trigger.fire()
            return .recoveryKey(SecretBytes(copying: Array(key.text.utf8)))
        case .join(let server, let password, let deviceName, let recoveryKey):
            let key = try RecoveryKey(text: Self.text(recoveryKey))
            try await sync.join(server: try Self.endpoint(server), password: Self.text(password), deviceName: deviceName, recoveryKey: key)
            trigger.fire()
            return .done
        case .requestToJoin(let server, let password, let deviceName):
            let pending = try await sync.requestToJoin(server: try Self.endpoint(server), password: Self.text(password), deviceName: deviceName)
            pendingJoin.keep(pending)
            return .pairingCode(pending.code.text)
        case .awaitJoin:
            guard let pending = pendingJoin.take() else {
                throw SyncError.invalidCode("no join waits for an approval: ask to join first (coffer sync join)")
            }
            try await sync.completeJoin(pending)
            trigger.fire()
            return .done
        case .approve(let code):
            let device = try await sync.approve(code: try PairingCode(text: code))
            return .device(SyncDeviceSummary(id: device.id, name: device.name, isThisDevice: false, isRecoveryKey: false))
        case .devices:
            return .devices(try await sync.devices().map(Self.summary))
        case .removeDevice(let device):
            return .device(Self.summary(try await sync.removeDevice(device)))
        case .leave:
            try sync.leave()
            return .done
        }
    }

    private static func endpoint(_ dsn: String) throws(SyncError) -> ServerEndpoint {
        do {
            return try ServerEndpoint(dsn: dsn, defaultUser: "")
        } catch {
            throw .invalidCode(error.description)
        }
    }

    private static func text(_ secret: SecretBytes) -> String { secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    private static func summary(_ device: SyncDevice) -> SyncDeviceSummary {
        SyncDeviceSummary(id: device.id, name: device.name, isThisDevice: device.isThisDevice, isRecoveryKey: device.isRecoveryKey)
    }

    /// Apple's status for what stopped sync, with its explanation.
    static func response(_ error: SyncError) -> Response {
        let status: KeychainStatus =
            switch error {
            case .notSetUp: .notAvailable
            case .alreadySetUp, .accountInUse: .duplicateItem
            case .invalidCode: .param
            case .damaged: .decode
            case .keychain(let code, _): KeychainStatus(code: code)
            case .untrustedServer, .server: .io
            }
        return .failure(status, reason: error.description)
    }
}

/// The join this keychain asked for and waits to have approved (one at a time; a new request replaces it).
final class PendingJoinSlot: Sendable {
    private let pending = Mutex<PendingJoin?>(nil)

    func keep(_ join: PendingJoin) { pending.withLock { $0 = join } }

    func take() -> PendingJoin? {
        pending.withLock { value in
            defer { value = nil }; return value
        }
    }
}
