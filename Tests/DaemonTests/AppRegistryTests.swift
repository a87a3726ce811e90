import ProgramIdentity
import Daemon
import Engine
import Foundation
import Testing

@Suite("App registry: entitlements for Linux programs", .timeLimit(.minutes(10)))
struct AppRegistryTests {
    private let path = "/usr/bin/mail-client"

    private func identity(_ kind: PeerIdentity.Kind, path: String = "/usr/bin/mail-client") -> PeerIdentity {
        PeerIdentity(uid: 1000, pid: 42, gid: 1000, kind: kind, executablePath: path)
    }

    @Test func registeredProgramGetsItsGroupsThenItsAppID() {
        var registry = AppRegistry()
        registry.register(RegisteredApp(path: path, appID: "TEAM.mail", groups: ["TEAM.shared", "TEAM.mail.extra"]))
        #expect(
            registry.caller(for: identity(.pathModeProgram(path: path, sha256: nil))).accessGroups
                == .list(["TEAM.shared", "TEAM.mail.extra", "TEAM.mail"]))
    }

    @Test func identityGroupProgramGetsItsEntrysGroups() {
        var registry = AppRegistry()
        registry.register(
            RegisteredApp(
                path: path, appID: "TEAM.mail", groups: ["TEAM.shared"], identity: .init(gid: 990, device: 1, inode: 2)))
        #expect(registry.caller(for: identity(.identityGroupProgram(gid: 990))).accessGroups == .list(["TEAM.shared", "TEAM.mail"]))
        // Its path alone (a path-mode match) gives nothing of the entry: the entry is not a path-mode one.
        #expect(
            registry.caller(for: identity(.pathModeProgram(path: path, sha256: nil))).accessGroups
                == .list([AppRegistry.unregisteredGroup(forPath: path)]))
        // Removed since the program connected: it is treated as unregistered.
        registry.remove("TEAM.mail")
        #expect(
            registry.caller(for: identity(.identityGroupProgram(gid: 990))).accessGroups
                == .list([AppRegistry.unregisteredGroup(forPath: path)]))
    }

    @Test func unregisteredProgramGetsAGroupOfItsOwn() {
        let registry = AppRegistry()
        let group = AppRegistry.unregisteredGroup(forPath: path)
        #expect(registry.caller(for: identity(.unregistered(group: group))).accessGroups == .list([group]))
        #expect(group.hasPrefix("unregistered."))
        #expect(group != AppRegistry.unregisteredGroup(forPath: "/usr/bin/other"))
        #expect(AppRegistry.foreignNamespaceGroup(forPath: path) != group)
    }

    @Test func refusedCallersGetNoGroup() {
        var registry = AppRegistry()
        registry.register(RegisteredApp(path: path, appID: "TEAM.mail", groups: []))
        #expect(registry.caller(for: identity(.refused(reason: "test"))).accessGroups == .list([]))
    }

    @Test func changedBinaryLosesAccessUntilReapproved() {
        var registry = AppRegistry()
        let running = identity(.pathModeProgram(path: path, sha256: "aa"))
        registry.register(RegisteredApp(path: path, appID: "TEAM.mail", groups: [], pinnedSHA256: "bb"))
        #expect(registry.caller(for: running).accessGroups == .list([]))
        registry.register(RegisteredApp(path: path, appID: "TEAM.mail", groups: [], pinnedSHA256: "aa"))
        #expect(registry.caller(for: running).accessGroups == .list(["TEAM.mail"]))
    }

    @Test func removeByPathOrAppID() {
        var registry = AppRegistry()
        registry.register(RegisteredApp(path: "/a", appID: "X.a", groups: []))
        registry.register(RegisteredApp(path: "/b", appID: "X.b", groups: []))
        #expect(registry.remove("X.a") == 1)
        #expect(registry.remove("/b") == 1)
        #expect(registry.apps.isEmpty)
    }

    @Test func oneEntryPerIdentityGroupAndItsFileIsRecorded() {
        var registry = AppRegistry()
        registry.register(RegisteredApp(path: "/a", appID: "X.a", groups: [], identity: .init(gid: 990, device: 1, inode: 2)))
        registry.register(RegisteredApp(path: "/b", appID: "X.b", groups: [], identity: .init(gid: 990, device: 1, inode: 3)))
        #expect(registry.apps.map(\.path) == ["/b"])
        let changed = registry.recordFile(ofGroup: 990, device: 1, inode: 4)
        let changedAgain = registry.recordFile(ofGroup: 990, device: 1, inode: 4)
        #expect(changed && !changedAgain)
        #expect(registry.entry(identityGroup: 990)?.identity == .init(gid: 990, device: 1, inode: 4))
    }

    @Test func anAppsJSONFromBeforeIdentityGroupsReadsAsPathModeEntries() throws {
        let stored = #"{"apps":[{"appID":"TEAM.mail","groups":["TEAM.shared"],"path":"/usr/bin/mail-client","pinnedSHA256":"aa"}]}"#
        let registry = try JSONDecoder().decode(AppRegistry.self, from: Data(stored.utf8))
        #expect(registry.apps == [RegisteredApp(path: path, appID: "TEAM.mail", groups: ["TEAM.shared"], pinnedSHA256: "aa")])
        #expect(registry.apps[0].identity == nil)
    }

    @Test func unitsAreKeptApartFromProgramsAndOlderFilesStillRead() throws {
        let older = Data(#"{"apps":[{"path":"/usr/bin/mail-client","appID":"TEAM.mail","groups":[]}]}"#.utf8)
        var registry = try JSONDecoder().decode(AppRegistry.self, from: older)
        #expect(registry.apps.count == 1 && registry.units.isEmpty)
        registry.register(RegisteredUnit(name: "backup.service", appID: "TEAM.backup", groups: ["TEAM.db"]))
        #expect(registry.unit(named: "backup.service")?.accessGroups == ["TEAM.db", "TEAM.backup"])
        // A program at a path spelled like the unit gets nothing of it.
        #expect(registry.caller(for: identity(.pathModeProgram(path: "backup.service", sha256: nil))).accessGroups != .list(["TEAM.db", "TEAM.backup"]))
        let reread = try JSONDecoder().decode(AppRegistry.self, from: JSONEncoder().encode(registry))
        #expect(reread == registry)
        #expect(registry.remove("backup.service") == 1 && registry.units.isEmpty && registry.apps.count == 1)
        #expect(RegisteredUnit.isValidName("backup.service") && RegisteredUnit.isValidName("getty@tty1.service"))
        #expect(!RegisteredUnit.isValidName("backup") && !RegisteredUnit.isValidName("../x.service") && !RegisteredUnit.isValidName(".service"))
    }
}
