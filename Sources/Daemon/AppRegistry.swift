import Crypto
import Foundation
import KeychainModel

/// One registered program: Coffer's counterpart of an app's code signature and entitlements.
public struct RegisteredApp: Sendable, Hashable, Codable {
    /// The executable's absolute path.
    public var path: String
    /// The application identifier (Apple's `application-identifier`, e.g. `TEAM.com.example.app`).
    public var appID: String
    /// The keychain access groups (Apple's `keychain-access-groups`), in order.
    public var groups: [String]
    /// When set, the SHA-256 the executable must have; a changed binary loses access until re-approved.
    public var pinnedSHA256: String?

    /// Creates an entry.
    public init(path: String, appID: String, groups: [String], pinnedSHA256: String? = nil) {
        self.path = path
        self.appID = appID
        self.groups = groups
        self.pinnedSHA256 = pinnedSHA256
    }

    /// The caller's access-group list with Apple's order: the keychain access groups, then the
    /// application identifier. The first is the default group for adds.
    public var accessGroups: [String] {
        var list = groups
        if !list.contains(appID) { list.append(appID) }
        return list
    }
}

/// The registry of one user's programs, kept by the daemon in that user's keychain folder
/// (`apps.json`, 0600). Maps a calling executable to its access groups.
public struct AppRegistry: Sendable, Hashable, Codable {
    /// The registered programs.
    public private(set) var apps: [RegisteredApp] = []

    /// An empty registry.
    public init() {}

    /// Adds or replaces the entry for `app.path`.
    public mutating func register(_ app: RegisteredApp) {
        apps.removeAll { $0.path == app.path }
        apps.append(app)
        apps.sort { $0.path < $1.path }
    }

    /// Removes entries whose path or application identifier is `pathOrAppID`; returns how many.
    @discardableResult
    public mutating func remove(_ pathOrAppID: String) -> Int {
        let before = apps.count
        apps.removeAll { $0.path == pathOrAppID || $0.appID == pathOrAppID }
        return before - apps.count
    }

    /// The caller context for a program.
    ///
    /// A registered program gets its groups; one whose pinned hash no longer matches gets none (every
    /// call then fails with `errSecMissingEntitlement` until it is approved again). An unregistered
    /// program gets a single group of its own derived from its path, so it sees only what it created.
    public func caller(for executable: ExecutableIdentity) -> CallerContext {
        guard let app = apps.first(where: { $0.path == executable.path }) else {
            return CallerContext(accessGroups: .list([executable.unregisteredGroup]))
        }
        if let pin = app.pinnedSHA256, pin != executable.sha256 {
            return CallerContext(accessGroups: .list([]))
        }
        return CallerContext(accessGroups: .list(app.accessGroups))
    }

    /// The group of an unregistered program: `unregistered.` and the first 16 hex digits of SHA-256 of its path.
    public static func unregisteredGroup(forPath path: String) -> String {
        "unregistered." + hex(SHA256.hash(data: Data(path.utf8)).prefix(8))
    }

    /// Lowercase hexadecimal digits of `bytes`.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
