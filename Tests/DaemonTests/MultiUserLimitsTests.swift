import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// No user can starve another: an attacking user's held connections, stalled largest-size frames and
/// full keychain leave another user served. Runs with the other multi-user tests (root, throwaway users).
extension MultiUserDaemonTests {
    /// What the daemon may hold while one user attacks with `connections` connections: its memory at
    /// rest, plus that user's bytes in flight (96 MiB by default), plus 16 KiB per connection
    /// (SECURITY.md, "Limits").
    static func residentBound(atRest: Int, connections: Int) -> Int { atRest + (96 << 20) + connections * (16 << 10) + (16 << 20) }

    @Test(.timeLimit(.minutes(3))) func aThousandHeldConnectionsAndStalledFramesDoNotStarveAnotherUser() throws {
        let fixture = try Fixture()
        // The per-user connection cap raised, so the attacker really holds a thousand connections.
        try fixture.startDaemon(extraArguments: ["--max-connections-per-user", "1100"])
        let daemon = try #require(fixture.daemon?.pid)
        #expect(try fixture.client(Self.bob, "app-a", "add", "mine") == "0")
        #expect(try fixture.client(Self.bob, "app-a", "find", "mine") == "0 secret-mine")
        let atRest = try #require(residentBytes(of: daemon))

        // 1 000 connections; 12 of them send 16 MiB of a 17 MiB frame and stall.
        let attacker = try ConnectionHoarder(user: Self.alice, socket: fixture.socket, connections: 1_000, partialFrames: 12, bytesPerFrame: 16 << 20)
        let held = try #require(attacker.held())
        // Five stalled frames fit in the attacker's 96 MiB; the daemon closed the other seven.
        #expect(held == 1_000 - 7)
        let underAttack = try #require(residentBytes(of: daemon))
        #expect(underAttack < Self.residentBound(atRest: atRest, connections: 1_000), "RSS \(underAttack >> 20) MiB under attack, \(atRest >> 20) MiB at rest")

        // The other user is served, correctly, while the attack goes on.
        let deadline = ContinuousClock.now + .seconds(60)
        #expect(try fixture.client(Self.bob, "app-a", "find", "mine") == "0 secret-mine")
        #expect(try fixture.client(Self.bob, "app-a", "add", "during") == "0")
        #expect(ContinuousClock.now < deadline)
        #expect(residentBytes(of: daemon).map { $0 < Self.residentBound(atRest: atRest, connections: 1_000) } == true)

        // Memory goes back once the attacker is gone.
        attacker.stop()
        var after = Int.max
        for _ in 0..<50 {
            usleep(100_000)
            after = residentBytes(of: daemon) ?? .max
            if after < atRest + (24 << 20) { break }
        }
        #expect(after < atRest + (24 << 20), "RSS \(after >> 20) MiB after the attack, \(atRest >> 20) MiB before, \(underAttack >> 20) MiB during")
        #expect(try fixture.client(Self.bob, "app-a", "find", "during") == "0 secret-during")
    }

    @Test(.timeLimit(.minutes(2))) func oneUserHoldsAtMostItsShareOfConnections() throws {
        let fixture = try Fixture()
        try fixture.startDaemon(extraArguments: ["--max-connections-per-user", "16"])
        let attacker = try ConnectionHoarder(user: Self.alice, socket: fixture.socket, connections: 40, partialFrames: 0, bytesPerFrame: 0)
        #expect(attacker.held() == 16)
        // Another user is served; the attacker's further connections are closed at once.
        #expect(try fixture.client(Self.bob, "app-a", "add", "x") == "0")
        #expect(try fixture.client(Self.alice, "app-a", "add", "x") == "-25291")
        attacker.stop()
        usleep(300_000)
        #expect(try fixture.client(Self.alice, "app-a", "add", "x") == "0")
    }

    @Test(.timeLimit(.minutes(3))) func aFullKeychainIsRefusedWithDiskFullAndOthersStillAddAndUnlock() throws {
        let fixture = try Fixture()
        try fixture.startDaemon(extraArguments: ["--storage-quota-per-user", "1"])
        let alice = Self.alice
        #expect(try fixture.coffer(alice, ["passcode", "set"], input: "alice-code\n").status == 0)
        // Items of 100 KiB until the 1 MiB quota refuses one.
        let secret = String(repeating: "s", count: 100_000)
        var refusal: (status: Int32, output: String)?
        for index in 0..<30 {
            let added = try fixture.coffer(alice, ["add-generic-password", "-s", "fill", "-a", "a\(index)", "-w", secret])
            if added.status != 0 {
                refusal = added
                break
            }
        }
        let refused = try #require(refusal, "the quota never refused an add")
        #expect(refused.output.contains("-34"), "\(refused.output)")
        #expect(refused.output.contains("quota"), "\(refused.output)")
        // Another user adds and unlocks as usual.
        let bob = Self.bob
        #expect(try fixture.client(bob, "app-a", "add", "bobs") == "0")
        #expect(try fixture.coffer(bob, ["passcode", "set"], input: "bob-code\n").status == 0)
        #expect(try fixture.coffer(bob, ["lock"], input: "bob-code\n").status == 0)
        #expect(try fixture.coffer(bob, ["unlock"], input: "bob-code\n").status == 0)
        #expect(try fixture.client(bob, "app-a", "find", "bobs") == "0 secret-bobs")
        // The full user can still lock, unlock, read and delete; deleting makes room for an add again.
        #expect(try fixture.coffer(alice, ["lock"], input: "alice-code\n").status == 0)
        #expect(try fixture.coffer(alice, ["unlock"], input: "alice-code\n").status == 0)
        #expect(try fixture.coffer(alice, ["find-generic-password", "-s", "fill", "-a", "a0"]).status == 0)
        for index in 0..<3 {
            #expect(try fixture.coffer(alice, ["delete-generic-password", "-s", "fill", "-a", "a\(index)"]).status == 0)
        }
        #expect(try fixture.coffer(alice, ["add-generic-password", "-s", "fill", "-a", "again", "-w", secret]).status == 0)
    }
}
