import Foundation
import KeychainModel
import KeychainOperations
import KeychainService
import Keystore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One user's registry of programs, kept in `apps.json` (0600) in the user's keychain folder and
/// written atomically: a change is kept only once it is on disk.
final class ProgramRegistryFile: ProgramRegistry {
    private let url: URL
    private let registry: Mutex<AppRegistry>

    /// The registry stored at `url`, or an empty one when there is no file; a file that cannot be
    /// parsed is refused, never replaced.
    init(url: URL) throws {
        self.url = url
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

    /// The caller context of a program.
    func caller(for executable: ExecutableIdentity) -> CallerContext {
        registry.withLock { $0.caller(for: executable) }
    }

    /// The registered programs, as stored.
    var apps: [RegisteredApp] { registry.withLock { $0.apps } }

    var registeredApps: [KeychainOperations.RegisteredApp] { apps.map(\.wire) }

    func register(_ registration: AppRegistration) throws(KeychainFailure) {
        let pin: String?
        if registration.pinsExecutableHash {
            do {
                pin = try Self.hash(of: registration.executablePath)
            } catch {
                throw KeychainFailure(.param, reason: "cannot read \(registration.executablePath) to pin its hash")
            }
        } else {
            pin = nil
        }
        try change { registry in
            registry.register(RegisteredApp(
                path: registration.executablePath, appID: registration.applicationIdentifier,
                groups: registration.accessGroups, pinnedSHA256: pin))
        }
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

    /// The SHA-256 of the file at `path`, for pinning.
    private static func hash(of path: String) throws -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DaemonError.system("open \(path)", errno) }
        defer { close(descriptor) }
        return try ExecutableIdentifier.sha256(of: descriptor)
    }
}

extension RegisteredApp {
    /// The form `coffer apps list` shows.
    var wire: KeychainOperations.RegisteredApp {
        KeychainOperations.RegisteredApp(
            executablePath: path, applicationIdentifier: appID, accessGroups: groups,
            executableHash: pinnedSHA256.map { hex in
                stride(from: 0, to: hex.count, by: 2).compactMap { offset in
                    let start = hex.index(hex.startIndex, offsetBy: offset)
                    return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
                }
            })
    }
}
