import Daemon
import Engine
import Testing

@Suite("App registry: entitlements for Linux programs")
struct AppRegistryTests {
    private let app = ExecutableIdentity(path: "/usr/bin/mail-client", sha256: "aa")

    @Test func registeredProgramGetsItsGroupsThenItsAppID() {
        var registry = AppRegistry()
        registry.register(RegisteredApp(path: app.path, appID: "TEAM.mail", groups: ["TEAM.shared", "TEAM.mail.extra"]))
        #expect(registry.caller(for: app).accessGroups == .list(["TEAM.shared", "TEAM.mail.extra", "TEAM.mail"]))
    }

    @Test func unregisteredProgramGetsAGroupOfItsOwn() {
        let registry = AppRegistry()
        let group = AppRegistry.unregisteredGroup(forPath: app.path)
        #expect(registry.caller(for: app).accessGroups == .list([group]))
        #expect(group.hasPrefix("unregistered."))
        #expect(group != AppRegistry.unregisteredGroup(forPath: "/usr/bin/other"))
    }

    @Test func changedBinaryLosesAccessUntilReapproved() {
        var registry = AppRegistry()
        registry.register(RegisteredApp(path: app.path, appID: "TEAM.mail", groups: [], pinnedSHA256: "bb"))
        #expect(registry.caller(for: app).accessGroups == .list([]))
        registry.register(RegisteredApp(path: app.path, appID: "TEAM.mail", groups: [], pinnedSHA256: "aa"))
        #expect(registry.caller(for: app).accessGroups == .list(["TEAM.mail"]))
    }

    @Test func removeByPathOrAppID() {
        var registry = AppRegistry()
        registry.register(RegisteredApp(path: "/a", appID: "X.a", groups: []))
        registry.register(RegisteredApp(path: "/b", appID: "X.b", groups: []))
        #expect(registry.remove("X.a") == 1)
        #expect(registry.remove("/b") == 1)
        #expect(registry.apps.isEmpty)
    }
}
