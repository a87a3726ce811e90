import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The folder that holds one keychain's files, created 0700.
///
/// Chosen as `$COFFER_HOME`, else `$XDG_DATA_HOME/coffer`, else `~/.local/share/coffer`.
public struct KeychainFolder: Sendable, Hashable {
    /// The folder's path.
    public let url: URL

    /// A folder at an explicit location.
    public init(url: URL) { self.url = url.standardizedFileURL }

    /// The folder the environment names, by the rule above.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> KeychainFolder {
        if let home = environment["COFFER_HOME"], !home.isEmpty {
            return KeychainFolder(url: URL(fileURLWithPath: home, isDirectory: true))
        }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return KeychainFolder(url: URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("coffer", isDirectory: true))
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return KeychainFolder(
            url: URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".local/share/coffer", isDirectory: true))
    }

    /// The device key file, when the device key is not sealed by a TPM.
    public var deviceKeyURL: URL { url.appendingPathComponent("device.key") }
    /// The TPM-sealed device key, the TPM's storage root key it was sealed to, the passcode's TPM key and the
    /// device key's copy under the recovery key, when the keychain is bound to a TPM.
    public var tpmDeviceKeyURL: URL { url.appendingPathComponent("device-key.tpm") }
    /// The keybag file.
    public var keybagURL: URL { url.appendingPathComponent("keybag") }
    /// The lock file that serialises keybag changes between processes.
    public var keybagLockURL: URL { url.appendingPathComponent("keybag.lock") }
    /// The item database.
    public var databaseURL: URL { url.appendingPathComponent("items.sqlite") }
    /// The audit journal's folder (0700): its segments and head.
    public var auditURL: URL { url.appendingPathComponent("audit", isDirectory: true) }
    /// Whether secret reads the audit journal cannot record are refused (0600; absent: they are served). Kept beside
    /// the journal's folder, so that it is read when that folder cannot be.
    public var auditPolicyURL: URL { url.appendingPathComponent("audit-policy") }

    /// Creates the folder (and missing parents) with mode 0700 when it does not exist, then checks the
    /// folder and its files as ``checkStrictModes()`` does (modes are changed only when they are wrong).
    public func create() throws(KeystoreError) {
        let path = url.path
        if access(path, F_OK) != 0 {
            do {
                try FileManager.default.createDirectory(
                    atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .io(reason: "cannot create the keychain folder \(path): \(error.localizedDescription)")
            }
        }
        try checkStrictModes()
    }
}
