import CofferRuntime
import CofferTestSupport
import Foundation
import KeychainSelection
import KeychainModel
import KeychainOperations
import Query
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// One connection to the daemon carries a process's requests, many at once, each answer reaching the
/// request it belongs to; a task that stops waiting is answered at once, and a write in flight is never
/// reported as cancelled.
@Suite("One multiplexed daemon connection", .timeLimit(.minutes(10)))
struct MultiplexingTests {
    private static func item(_ account: String) -> QueryDictionary {
        ["class": "genp", "svce": "multiplexed", "acct": .string(account)]
    }

    @Test func tasksAndThreadsShareOneConnectionAndEachGetsItsOwnAnswer() async throws {
        let temporary = try TemporaryDaemon()
        let client = temporary.client
        let accounts = (0..<12).map { "account-\($0)" }
        for account in accounts {
            var add = Self.item(account)
            add.entries["v_Data"] = .data(Data("secret of \(account)".utf8))
            _ = try client.blocking.add(add)
        }
        let mismatches = Counter()
        // Four threads blocking on the connection, alongside eight suspended tasks on the same one.
        let finished = DispatchGroup()
        for account in accounts.prefix(4) {
            finished.enter()
            Thread {
                for _ in 0..<200 {
                    var find = Self.item(account)
                    find.entries["r_Data"] = true
                    if (try? client.blocking.copyMatching(find)) != .data(Data("secret of \(account)".utf8)) { mismatches.add() }
                }
                finished.leave()
            }.start()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for account in accounts.suffix(8) {
                group.addTask {
                    for _ in 0..<200 {
                        var find = Self.item(account)
                        find.entries["r_Data"] = true
                        if try await client.copyMatching(find) != .data(Data("secret of \(account)".utf8)) { mismatches.add() }
                    }
                }
            }
            try await group.waitForAll()
        }
        finished.wait()
        #expect(mismatches.value == 0)
        withExtendedLifetime(temporary) {}
    }

    /// The silent daemon never answers, so only the cancellation can end the wait.
    @Test(.timeLimit(.minutes(1))) func cancellingAReadEndsTheWait() async throws {
        let silent = try SilentDaemon()
        let client = DaemonKeychain(socketPath: silent.socketPath)
        let waiting = Task { await client.send(.copyMatching(Self.item("a"))) }
        try await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        #expect(await waiting.value == .status(.userCanceled))
    }

    @Test(.timeLimit(.minutes(1))) func aCancelledKeystoreCallSaysSo() async throws {
        let silent = try SilentDaemon()
        let client = DaemonKeychain(socketPath: silent.socketPath)
        let waiting = Task { () async throws(KeystoreError) -> KeystoreStatus in try await client.lockStatus() }
        try await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        await #expect(throws: KeystoreError.cancelled) { _ = try await waiting.value }
    }

    @Test func aTaskCancelledBeforeItsWriteIsSentSendsNothing() async throws {
        let temporary = try TemporaryDaemon()
        let client = temporary.client
        var add = Self.item("never")
        add.entries["v_Data"] = .data(Data("x".utf8))
        let request = add
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await client.send(.add(request))
        }
        #expect(await task.value == .status(.userCanceled))
        #expect(throws: KeychainStatus.itemNotFound) { _ = try client.statusCalls.copyMatching(Self.item("never")) }
        withExtendedLifetime(temporary) {}
    }

    @Test(.timeLimit(.minutes(1))) func aWriteInFlightIsNotReportedCancelled() async throws {
        let silent = try SilentDaemon()
        let client = DaemonKeychain(socketPath: silent.socketPath)
        var add = Self.item("a")
        add.entries["v_Data"] = .data(Data("x".utf8))
        let request = add
        let waiting = Task { await client.send(.add(request)) }
        try await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        try await Task.sleep(for: .milliseconds(200))
        // The daemon goes away without answering: the add may or may not have been stored, and the
        // caller is told exactly that, never that it was cancelled.
        silent.stop()
        guard case .failure(let status, let reason) = await waiting.value else {
            Issue.record("expected a failure, got \(await waiting.value)")
            return
        }
        #expect(status == .notAvailable)
        #expect(reason.contains("may or may not have taken effect"))
    }
}

/// A thread-safe count.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// A "daemon" that accepts connections and reads requests but never answers, until stopped.
///
/// Each descriptor is closed by the one thread that uses it, so that a number closed here can never be
/// closed or shut down again once another test's file has taken it.
final class SilentDaemon: @unchecked Sendable {
    let socketPath: String
    private let listening: Int32
    private let lock = NSLock()
    /// Connections still open; a reader removes its own, under the lock, as it closes it.
    private var connections: [Int32] = []
    private var stopped = false

    init() throws {
        socketPath = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-silent-\(UUID().uuidString.prefix(8))").path
        listening = try UnixSocket.listen(at: socketPath, mode: 0o600)
        let listening = listening
        Thread { [self] in
            while true {
                let connection = accept(listening, nil, nil)
                guard connection >= 0 else {
                    close(listening)
                    return
                }
                lock.withLock { connections.append(connection) }
                Thread { [self] in
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    while recv(connection, &buffer, buffer.count, 0) > 0 {}
                    lock.withLock {
                        connections.removeAll { $0 == connection }
                        close(connection)
                    }
                }.start()
            }
        }.start()
    }

    /// Ends every connection and stops accepting; the threads reading them close the descriptors.
    func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
            // Wakes the accepting thread, which closes the listening socket.
            shutdown(listening, Int32(SHUT_RDWR))
            unlink(socketPath)
        }
    }

    deinit { stop() }
}
