import Foundation
import GRDB
import KeychainModel
import Query
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// Acknowledged writes survive SIGKILL; concurrent threads and processes lose nothing.
@Suite("Reliability", .timeLimit(.minutes(10)))
struct ReliabilityTests {
    static var helper: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("CofferTestHelper")
    }

    /// Starts the helper with `arguments`.
    private func start(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess([Self.helper.path] + arguments, errors: .null)
    }

    @Test func acknowledgedAddsSurviveSIGKILL() throws {
        let iterations = Int(ProcessInfo.processInfo.environment["COFFER_CRASH_ITERATIONS"] ?? "") ?? 200
        try #require(FileManager.default.isExecutableFile(atPath: Self.helper.path))
        let keychain = TestKeychain()
        _ = try keychain.add(genp("setup", "0"))  // creates the files once
        var acknowledged: [String: Int] = [:]
        for iteration in 0..<iterations {
            let run = "run\(iteration)"
            let writer = try start(["item-writer", keychain.folder.url.path, run])
            _ = writer.nextOutputLine()  // "ready"
            usleep(UInt32.random(in: 0...30_000))
            writer.kill()
            let lines = try writer.finish().outputText
                .split(separator: "\n").compactMap { Int($0) }
            acknowledged[run] = (lines.max() ?? -1) + 1
        }
        #expect(acknowledged.values.reduce(0, +) > iterations / 4, "the writer should get some adds acknowledged before most kills")
        let reader = keychain.reopened()
        for (run, count) in acknowledged {
            for index in 0..<count {
                let value = try reader.copy(genp(run, "\(index)", ["r_Data": true]))?.dataValue
                #expect(value == Data("value-\(run)-\(index)".utf8), "acknowledged \(run)/\(index) lost")
            }
            // At most the one add in flight when the kill came may also have landed; nothing else.
            let all = try? reader.copy(["class": "genp", "svce": .string(run), "m_Limit": "m_LimitAll", "r_Attributes": true])
            let accounts = (all?.arrayValue ?? []).compactMap { $0.dictionary?["acct"] }
            #expect(accounts.count <= count + 1, "\(run): \(accounts.count) items for \(count) acknowledged adds")
        }
        let integrity = try DatabaseQueue(path: keychain.folder.databaseURL.path).read {
            try String.fetchOne($0, sql: "PRAGMA integrity_check")
        }
        #expect(integrity == "ok")
    }

    @Test func eightThreadsMixedOperations() async throws {
        let keychain = TestKeychain()
        _ = try keychain.add(genp("shared", "seed"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for round in 0..<100 {
                        let item = genp("thread-\(worker)", "\(round)")
                        var add = item
                        add.entries["v_Data"] = secretData("v\(round)")
                        _ = try keychain.add(add)
                        var find = item
                        find.entries["r_Data"] = true
                        let value = try keychain.copy(find)?.dataValue
                        guard value == Data("v\(round)".utf8) else { throw KeychainStatus.internal }
                        try keychain.update(item, ["v_Data": secretData("w\(round)")])
                        if round % 2 == 0 { try keychain.delete(item) }
                        _ = try keychain.copy(genp("shared", "seed"))
                    }
                }
            }
            try await group.waitForAll()
        }
        for worker in 0..<8 {
            let remaining = try keychain.copy(["class": "genp", "svce": .string("thread-\(worker)"), "m_Limit": "m_LimitAll", "r_Data": true])?.arrayValue
            #expect(remaining?.count == 50)
            #expect(remaining?.allSatisfy { $0.dataValue?.first == UInt8(ascii: "w") } == true)
        }
    }

    @Test func fourProcessesMixedOperations() throws {
        let keychain = TestKeychain()
        _ = try keychain.add(genp("shared", "seed"))
        let rounds = 100
        let processes = try (0..<4).map { worker in try start(["mixed-ops", keychain.folder.url.path, "\(worker)", "\(rounds)"]) }
        for process in processes {
            #expect(try process.finish(timeout: .seconds(300)).termination.succeeded)
        }
        for worker in 0..<4 {
            let remaining = try keychain.copy(["class": "genp", "svce": .string("mixed-\(worker)"), "m_Limit": "m_LimitAll", "r_Data": true])?.arrayValue
            #expect(remaining?.count == rounds / 2)
        }
    }
}
