import ProgramIdentity
import CofferDiagnostics
import Foundation
import KeychainModel
import KeychainOperations
import KeychainService
import Keystore
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One user's registry of programs, kept in `apps.json` (0600) in the user's keychain folder and
/// written atomically: a change is kept only once it is on disk.
final class ProgramRegistryFile: ProgramRegistry, RegisteredPrograms {
    private let url: URL
    private let registry: Mutex<AppRegistry>
    private let hasher: ExecutableHasher
    private let logger = DiagnosticsLevel.logger(label: "coffer.daemon")

    /// The registry stored at `url`, or an empty one when there is no file; a file that cannot be
    /// parsed is refused, never replaced.
    init(url: URL, hasher: ExecutableHasher = ExecutableHasher()) throws {
        self.url = url
        self.hasher = hasher
        if let stored = try? SecureFile.read(url, limit: 1 << 20) {
            let data = stored.withUnsafeBytes { Data($0) }
            guard let decoded = try? JSONDecoder().decode(AppRegistry.self, from: data) else {
                throw DaemonError.keychainUnavailable("apps.json cannot be parsed")
            }
            registry = Mutex(decoded)
        } else {
            registry = Mutex(AppRegistry())
        }
    }

    /// The caller context of a caller.
    func caller(for identity: PeerIdentity) -> CallerContext {
        registry.withLock { $0.caller(for: identity) }
    }

    func isUnregistered(_ identity: PeerIdentity) -> Bool {
        registry.withLock { $0.isUnregistered(identity) }
    }

    var snapshot: AppRegistry { registry.withLock { $0 } }

    func recordFile(ofGroup gid: UInt32, device: UInt64, inode: UInt64) {
        do {
            try change { $0.recordFile(ofGroup: gid, device: device, inode: inode) }
        } catch {
            logger.warning("could not record the replaced file of a registered program", metadata: ["gid": "\(gid)", "reason": "\(error.reason ?? "")"])
        }
    }

    /// The registered programs, as stored.
    var apps: [ProgramIdentity.RegisteredApp] { registry.withLock { $0.apps } }

    var registeredApps: [KeychainOperations.RegisteredApp] {
        let registry = snapshot
        return registry.apps.map(\.wire) + registry.units.map(\.wire)
    }

    /// The registered unit `name`, if any.
    func unit(named name: String) -> RegisteredUnit? { registry.withLock { $0.unit(named: name) } }

    func register(_ registration: AppRegistration) throws(KeychainFailure) {
        let path = registration.executablePath
        if let reserved = registration.accessGroups.first(where: OwnerAccessGroups.contains) {
            throw KeychainFailure(.param, reason: "\(reserved) is the keychain owner's group; no program may be registered with it")
        }
        if registration.mode == .systemdUnit {
            guard RegisteredUnit.isValidName(path) else {
                throw KeychainFailure(
                    .param, reason: "\(path) is not a systemd unit's name (letters, digits and :-_.\\@, ending in .service, .socket, .timer…)")
            }
            try change { $0.register(RegisteredUnit(name: path, appID: registration.applicationIdentifier, groups: registration.accessGroups)) }
            return
        }
        var app = RegisteredApp(path: path, appID: registration.applicationIdentifier, groups: registration.accessGroups)
        switch registration.mode {
        case .systemdUnit:
            preconditionFailure("a unit's registration is kept above")
        case .identityGroup:
            app.identity = try Self.identityRecord(of: path)
            let taken = snapshot.entry(identityGroup: app.identity!.gid)
            if let taken, taken.path != path {
                throw KeychainFailure(.duplicateItem, reason: "group \(app.identity!.gid) already identifies \(taken.path)")
            }
        case .path:
            if registration.pinsExecutableHash {
                do {
                    app.pinnedSHA256 = try hasher.sha256(ofFileAt: path)
                } catch {
                    throw KeychainFailure(.param, reason: "cannot pin the hash of \(path): \(error)")
                }
            }
        }
        try change { $0.register(app) }
    }

    /// The identity record of the file at `path` as the daemon sees it: it must be root-owned, setgid to a
    /// group other than root's, and writable by neither group nor others.
    private static func identityRecord(of path: String) throws(KeychainFailure) -> ProgramIdentity.RegisteredApp.IdentityRecord {
        guard let file = FileIdentity.at(path: path) else {
            throw KeychainFailure(.param, reason: "\(path) cannot be read by the daemon")
        }
        guard let gid = file.identityGroup else {
            throw KeychainFailure(
                .param,
                reason:
                    "\(path) carries no identity group (it must be root-owned, setgid to a group of its own, and not writable by group or others): run 'sudo coffer apps add \(path) …'"
            )
        }
        return RegisteredApp.IdentityRecord(gid: gid, device: file.device, inode: file.inode)
    }

    func remove(_ selector: AppSelector) throws(KeychainFailure) {
        try change { registry in
            switch selector {
            case .executablePath(let path): registry.remove(path)
            case .applicationIdentifier(let appID): registry.remove(appID)
            }
        }
    }

    /// Changes the registry and stores it durably; the change is kept only if the write succeeded.
    func change(_ edit: (inout AppRegistry) -> Void) throws(KeychainFailure) {
        do {
            try registry.withLock { current in
                var updated = current
                edit(&updated)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                let data = try encoder.encode(updated)
                try data.withUnsafeBytes { bytes in try SecureFile.writeAtomically(bytes, to: url) }
                current = updated
            }
        } catch {
            throw KeychainFailure(.io, reason: "the program registry could not be written")
        }
    }
}

extension ProgramIdentity.RegisteredApp {
    /// The form `coffer apps list` shows.
    var wire: KeychainOperations.RegisteredApp {
        KeychainOperations.RegisteredApp(
            executablePath: path, applicationIdentifier: appID, accessGroups: groups,
            executableHash: pinnedSHA256.map { hex in
                stride(from: 0, to: hex.count, by: 2).compactMap { offset in
                    let start = hex.index(hex.startIndex, offsetBy: offset)
                    return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
                }
            },
            identityGroupID: identity?.gid)
    }
}

extension RegisteredUnit {
    /// The form `coffer apps list` shows.
    var wire: KeychainOperations.RegisteredApp {
        KeychainOperations.RegisteredApp(
            executablePath: name, applicationIdentifier: appID, accessGroups: groups, executableHash: nil, isSystemdUnit: true)
    }
}
