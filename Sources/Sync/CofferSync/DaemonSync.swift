import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations
import KeychainSelection

/// `coffer sync status` and `coffer sync now` for a keychain behind cofferd (`COFFER_SOCKET`, or the system daemon):
/// the daemon syncs it in the background, and these ask the daemon. Joining an account needs the keychain's folder.
enum DaemonSync {
    /// The daemon's client when the environment selects a daemon's keychain rather than a folder (nil otherwise).
    static func client(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (any KeychainClient)? {
        guard (environment["COFFER_HOME"] ?? "").isEmpty else { return nil }
        let explicit = !(environment["COFFER_SOCKET"] ?? "").isEmpty
        guard case .daemon(let socket) = KeychainLocation.choice(environment: environment),
            explicit || socket == KeychainLocation.systemSocketPath
        else { return nil }
        return KeychainLocation.client(for: .daemon(socketPath: socket), environment: environment)
    }

    /// The daemon's sync state.
    static func state(_ client: any KeychainClient) async throws -> SyncState {
        do {
            return try await client.syncState()
        } catch {
            throw CommandFailure("cofferd: \(error.reason ?? "\(error.status.name) (\(error.status.code))")")
        }
    }

    /// A run of the daemon's background sync, now.
    static func runNow(_ client: any KeychainClient) async throws -> SyncReport {
        do {
            return try await client.syncNow()
        } catch {
            throw CommandFailure("cofferd: \(error.reason ?? "\(error.status.name) (\(error.status.code))")")
        }
    }

    /// A step of the account of cofferd's keychain. When the keychain has a passcode, the person proves it on this
    /// connection first (`reason` says why; nil when an earlier step of the command proved it), as the daemon asks of
    /// whoever manages the account.
    static func account(_ client: any KeychainClient, _ request: SyncAccountRequest, reason: String?) async throws -> SyncAccountAnswer {
        if let reason, (try? client.blocking.lockStatus().passcodeSet) == true {
            try LocalKeychain.withPasscode(reason: reason) { passcode in try client.blocking.proveOwner(passcode: passcode) }
        }
        do {
            return try await client.syncAccount(request)
        } catch {
            throw CommandFailure("cofferd: \(error.reason ?? "\(error.status.name) (\(error.status.code))")")
        }
    }

    /// The state for people, or as JSON.
    static func show(_ state: SyncState, json: Bool) throws {
        guard state.isSyncing else { throw CommandFailure("this keychain does not sync: run `coffer sync setup` or `coffer sync join`") }
        if json { return try printJSON(StateOutput(state)) }
        print("synced by:    cofferd, in the background")
        print("not sent yet: \(state.pending)")
        print("records:      \(state.mirrored)")
        print("waiting:      \(state.waitingForUnlock) (until the keychain is unlocked)")
        print("conflicts:    \(state.conflicts)")
        switch state.lastRun {
        case nil: print("last run:     none yet")
        case .synced(let report, let at)?:
            print("last run:     \(at): sent \(report.sent), received \(report.received), applied \(report.applied), refused \(report.refused)")
        case .failed(let reason, let at)?: print("last run:     \(at): FAILED: \(reason)")
        }
    }

    /// ``SyncState`` as `--json` prints it.
    struct StateOutput: Encodable {
        let pending: Int
        let mirrored: Int
        let waitingForUnlock: Int
        let conflicts: Int
        let lastRunAt: Date?
        let lastRun: SyncReport?
        let lastFailure: String?

        init(_ state: SyncState) {
            pending = state.pending
            mirrored = state.mirrored
            waitingForUnlock = state.waitingForUnlock
            conflicts = state.conflicts
            lastRunAt = state.lastRun?.date
            switch state.lastRun {
            case .synced(let report, _)?: (lastRun, lastFailure) = (report, nil)
            case .failed(let reason, _)?: (lastRun, lastFailure) = (nil, reason)
            case nil: (lastRun, lastFailure) = (nil, nil)
            }
        }
    }
}
