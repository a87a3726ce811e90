import ProgramIdentity
import CofferDiagnostics
import Engine
import Foundation
import KeychainModel
import KeychainService
import Keystore
import Logging
import Synchronization
import TrustedPlatformModule

/// One user's keychain inside the daemon: the keychain service over its files, the registry of its
/// programs, and when it was last used (for auto-lock).
public final class UserKeychain: Sendable {
    /// The user.
    public let uid: UInt32
    /// The keychain's folder.
    public let folder: KeychainFolder
    /// The engine (and through it the keystore, which holds this user's lock state).
    public let engine: KeychainEngine
    /// The handler of this user's requests, the same as the embedded keychain's.
    public let service: KeychainService
    /// This user's prompt agent and the questions waiting for it.
    let prompts = PromptBroker()
    /// This user's connections that proved the keychain passcode.
    let owners = OwnerProofs()
    /// The registry of this user's programs, which ``PeerIdentifier/identify(peer:registry:isAbandoned:)`` reads.
    public var programs: some RegisteredPrograms { registry }
    private let registry: ProgramRegistryFile
    private let lastUse = Mutex(ContinuousClock.now)
    /// Keeps the keychain in step with its sync account, when it has one, and answers the sync requests.
    let sync: SyncMonitor

    /// `restoreStaging` is shared by every user's keychain, so that its total bounds them all.
    init(uid: UInt32, folder: KeychainFolder, restoreStaging: RestoreStagingPool, tpm: TPMSelection) throws {
        self.uid = uid
        self.folder = folder
        do {
            engine = try KeychainEngine.openExplaining(folder: folder, tpm: tpm)
        } catch {
            let reason = error.reason.map { "\(error.status.name): \($0)" } ?? error.status.name
            throw error.awaitsRecovery ? DaemonError.keychainAwaitsRecovery(reason) : DaemonError.keychainUnavailable(reason)
        }
        registry = try ProgramRegistryFile(url: folder.url.appendingPathComponent("apps.json"))
        service = KeychainService(
            engine: engine, registry: registry, biometry: SensorVerifier.fprintd(uid: uid), restoreStaging: restoreStaging)
        sync = SyncMonitor(engine: engine)
    }

    /// Notes a request, for auto-lock.
    func touch() { lastUse.withLock { $0 = .now } }

    /// How long since the last request.
    var idleTime: Duration { lastUse.withLock { .now - $0 } }

    /// The caller context of a caller of this user.
    public func caller(for identity: PeerIdentity) -> CallerContext {
        registry.caller(for: identity)
    }

    /// The caller context of a caller of this user in per-user mode: a registered program gets its entry's
    /// groups, as in system mode; any other program of the user gets what the embedded keychain gives a
    /// program that names no groups (unrestricted, adding to `coffer.default`). The files are the user's, so
    /// a group of its own would keep nothing from it, and would hide from `coffer` through the daemon what
    /// `coffer` stored in the same folder without one.
    func callerInPerUserMode(for identity: PeerIdentity) -> CallerContext {
        registry.isUnregistered(identity)
            ? CallerContext(accessGroups: .unrestricted(defaultGroup: CallerContext.embeddedDefaultGroup))
            : registry.caller(for: identity)
    }

    /// The registered programs.
    public var apps: [RegisteredApp] { registry.apps }

    /// The registered systemd unit `name`, if any.
    func unit(named name: String) -> RegisteredUnit? { registry.unit(named: name) }

    /// Changes the registry and stores it durably; the change is kept only if the write succeeded.
    public func changeRegistry(_ change: (inout AppRegistry) -> Void) throws {
        try registry.change(change)
    }
}

/// Every user's keychain the daemon has opened, by uid.
public final class UserKeychains: Sendable {
    private let mode: DaemonConfiguration.Mode
    private let open = Mutex<[UInt32: UserKeychain]>([:])
    private let logger = DiagnosticsLevel.logger(label: "coffer.daemon")
    /// The memory every user's staged restores share.
    private let restoreStaging = RestoreStagingPool()

    /// The TPM the keychains' device keys are sealed by (`COFFER_TPM` in cofferd's environment unless told).
    private let tpm: TPMSelection

    /// The keychains for a daemon in `mode`, bound to the TPM `tpm` selects.
    public init(mode: DaemonConfiguration.Mode, tpm: TPMSelection = .fromEnvironment()) {
        self.mode = mode
        self.tpm = tpm
    }

    /// The users whose registry holds the systemd unit `name`: in per-user mode the owner or nobody; in system mode
    /// every user with a keychain folder, each registry read from its file when the keychain is not open.
    func users(registeringUnit name: String) -> [UInt32] {
        switch mode {
        case .user(_, let owner):
            return (try? keychain(for: owner))?.unit(named: name) == nil ? [] : [owner]
        case .system(let stateDirectory):
            let folders = (try? FileManager.default.contentsOfDirectory(atPath: stateDirectory.path)) ?? []
            return folders.compactMap(UInt32.init).sorted().filter { uid in
                if let opened = open.withLock({ $0[uid] }) { return opened.unit(named: name) != nil }
                let file = stateDirectory.appendingPathComponent(String(uid)).appendingPathComponent("apps.json")
                return (try? ProgramRegistryFile(url: file))?.unit(named: name) != nil
            }
        }
    }

    /// The keychain of `uid`, opened on first use. In per-user mode any other uid is refused; a keychain its TPM no
    /// longer opens throws ``DaemonError/keychainAwaitsRecovery(_:)`` (see ``recoveryDesk(for:reason:)``).
    public func keychain(for uid: UInt32) throws -> UserKeychain {
        try open.withLock { keychains in
            if let existing = keychains[uid] { return existing }
            let keychain = try UserKeychain(uid: uid, folder: try folder(for: uid), restoreStaging: restoreStaging, tpm: tpm)
            keychains[uid] = keychain
            logger.info("opened keychain", metadata: ["uid": "\(uid)"])
            return keychain
        }
    }

    /// What answers `uid`, whose keychain awaits its recovery key for `reason`, until it is recovered.
    func recoveryDesk(for uid: UInt32, reason: String) throws -> KeychainRecoveryDesk {
        KeychainRecoveryDesk(uid: uid, folder: try folder(for: uid), tpm: tpm, reason: reason)
    }

    /// The keychain folder of `uid`; in per-user mode any other uid is refused.
    private func folder(for uid: UInt32) throws -> KeychainFolder {
        switch mode {
        case .system(let stateDirectory):
            return KeychainFolder(url: stateDirectory.appendingPathComponent(String(uid), isDirectory: true))
        case .user(let userFolder, let owner):
            guard uid == owner else { throw DaemonError.foreignUser(uid) }
            return userFolder
        }
    }

    /// Locks every keychain idle for at least `interval`.
    public func lockIdle(after interval: Duration) {
        let idle = open.withLock { Array($0.values) }.filter { $0.idleTime >= interval }
        for keychain in idle where keychain.engine.keystore.lockState == .unlocked {
            keychain.engine.keystore.lock()
            keychain.service.recordAudit(DaemonAuditRecords.idleLock(uid: keychain.uid))
            logger.info("auto-locked an idle keychain", metadata: ["uid": "\(keychain.uid)"])
        }
    }

    /// Drops every keychain: their keys are released (and zeroized) with them.
    public func closeAll() {
        open.withLock { $0.removeAll() }
    }
}
