import Crypto
import Foundation
import KeychainModel

/// One registered program: Coffer's counterpart of an app's code signature and entitlements.
///
/// An entry with an ``identity`` is recognised by its identity group (the kernel's proof); one without
/// is a path-mode entry (the convenience mode), as every entry of an `apps.json` written before identity
/// groups was.
public struct RegisteredApp: Sendable, Hashable, Codable {
    /// The executable's absolute path.
    public var path: String
    /// The application identifier (Apple's `application-identifier`, e.g. `TEAM.com.example.app`).
    public var appID: String
    /// The keychain access groups (Apple's `keychain-access-groups`), in order.
    public var groups: [String]
    /// When set, the SHA-256 the executable must have; a changed binary loses access until re-approved
    /// (path mode only).
    public var pinnedSHA256: String?
    /// The identity group and the file that carries it; nil for a path-mode entry.
    public var identity: IdentityRecord?

    /// The identity group of a registered program and the file that carried it when last seen.
    public struct IdentityRecord: Sendable, Hashable, Codable {
        /// The group the executable is setgid to.
        public var gid: UInt32
        /// The executable's device, as the daemon last saw the file at the registered path.
        public var device: UInt64
        /// The executable's inode, likewise (updated when a package upgrade replaces the file).
        public var inode: UInt64

        /// Creates a record.
        public init(gid: UInt32, device: UInt64, inode: UInt64) {
            self.gid = gid
            self.device = device
            self.inode = inode
        }
    }

    /// Creates an entry.
    public init(path: String, appID: String, groups: [String], pinnedSHA256: String? = nil, identity: IdentityRecord? = nil) {
        self.path = path
        self.appID = appID
        self.groups = groups
        self.pinnedSHA256 = pinnedSHA256
        self.identity = identity
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
/// (`apps.json`, 0600). Maps a caller's identity to its access groups.
public struct AppRegistry: Sendable, Hashable, Codable {
    /// The registered programs.
    public private(set) var apps: [RegisteredApp] = []
    /// The registered systemd units (absent from an `apps.json` written before units could be registered).
    public private(set) var units: [RegisteredUnit] = []

    /// An empty registry.
    public init() {}

    private enum CodingKeys: String, CodingKey {
        case apps, units
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        apps = try container.decode([RegisteredApp].self, forKey: .apps)
        units = try container.decodeIfPresent([RegisteredUnit].self, forKey: .units) ?? []
    }

    /// Adds or replaces the entry for `unit.name`.
    public mutating func register(_ unit: RegisteredUnit) {
        units.removeAll { $0.name == unit.name }
        units.append(unit)
        units.sort { $0.name < $1.name }
    }

    /// The entry for the unit `name`.
    public func unit(named name: String) -> RegisteredUnit? { units.first { $0.name == name } }

    /// Adds or replaces the entry for `app.path` (and any other entry with the same identity group).
    public mutating func register(_ app: RegisteredApp) {
        apps.removeAll { $0.path == app.path || (app.identity != nil && $0.identity?.gid == app.identity?.gid) }
        apps.append(app)
        apps.sort { $0.path < $1.path }
    }

    /// Removes entries whose path, unit name or application identifier is `name`; returns how many.
    @discardableResult
    public mutating func remove(_ name: String) -> Int {
        let before = apps.count + units.count
        apps.removeAll { $0.path == name || $0.appID == name }
        units.removeAll { $0.name == name || $0.appID == name }
        return before - apps.count - units.count
    }

    /// Records that the identity-group entry for `gid` is now carried by the file `device`/`inode`
    /// (a package upgrade replaced it); returns whether anything changed.
    @discardableResult
    public mutating func recordFile(ofGroup gid: UInt32, device: UInt64, inode: UInt64) -> Bool {
        guard let index = apps.firstIndex(where: { $0.identity?.gid == gid }),
            let record = apps[index].identity, record.device != device || record.inode != inode
        else { return false }
        apps[index].identity = RegisteredApp.IdentityRecord(gid: gid, device: device, inode: inode)
        return true
    }

    /// The entry registered with identity group `gid`.
    public func entry(identityGroup gid: UInt32) -> RegisteredApp? { apps.first { $0.identity?.gid == gid } }

    /// The entry for `path`, of either mode.
    public func entry(path: String) -> RegisteredApp? { apps.first { $0.path == path } }

    /// The caller context of a caller, for one request.
    ///
    /// An identity-group program and a path-mode program get their entry's groups (a path-mode program
    /// whose pinned hash no longer matches gets none: every call then fails with
    /// `errSecMissingEntitlement` until it is approved again). A program whose entry was removed since it
    /// connected, an unregistered program and the trusted front end get a single group of their own,
    /// derived from the path, so they see only what they created. A refused caller gets no group.
    public func caller(for identity: PeerIdentity) -> CallerContext {
        let groups: [String]
        switch identity.kind {
        case .identityGroupProgram(let gid):
            groups = entry(identityGroup: gid)?.accessGroups ?? [Self.unregisteredGroup(forPath: identity.executablePath)]
        case .pathModeProgram(let path, let hash):
            if let app = entry(path: path), app.identity == nil {
                groups = app.pinnedSHA256 == nil || app.pinnedSHA256 == hash ? app.accessGroups : []
            } else {
                groups = [Self.unregisteredGroup(forPath: path)]
            }
        case .unregistered(let group), .trustedFrontEnd(let group):
            groups = [group]
        case .refused:
            groups = []
        }
        return CallerContext(accessGroups: .list(groups))
    }

    /// Whether `identity` is a program without an entry of its own (unregistered, the trusted front end, or
    /// one whose entry was removed since it connected): one that ``caller(for:)`` gives a group derived from
    /// its path. A refused caller is not: it gets nothing.
    public func isUnregistered(_ identity: PeerIdentity) -> Bool {
        switch identity.kind {
        case .identityGroupProgram(let gid): entry(identityGroup: gid) == nil
        case .pathModeProgram(let path, _): entry(path: path).map { $0.identity != nil } ?? true
        case .unregistered, .trustedFrontEnd: true
        case .refused: false
        }
    }

    /// The group of an unregistered program: `unregistered.` and the first 16 hex digits of SHA-256 of its path.
    public static func unregisteredGroup(forPath path: String) -> String {
        "unregistered." + Hexadecimal.text(SHA256.hash(data: Data(path.utf8)).prefix(8))
    }

    /// The group of an unregistered program running in another user or mount namespace than the daemon's:
    /// `unregistered-ns.` and 16 hex digits of SHA-256 of its path. Such a program can make any path show
    /// in `/proc/PID/exe` (a bind mount), so it must not reach the items of the host's program of that path;
    /// it keeps its items across runs all the same.
    public static func foreignNamespaceGroup(forPath path: String) -> String {
        "unregistered-ns." + Hexadecimal.text(SHA256.hash(data: Data(("namespace:" + path).utf8)).prefix(8))
    }
}
