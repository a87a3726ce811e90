import CofferRuntime
import CofferTestSupport
import DaemonProtocol
import Foundation
import KeychainSelection
import KeychainModel
import KeychainOperations
import Query
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A daemon that is stopped, silent or overwhelmed never hangs its clients: they answer
/// `errSecNotAvailable` with the reason, and a request that may have been received is never sent twice.
/// No assertion is about time: each test only needs an answer to come (short time-outs make it come soon).
@Suite("Daemon client time-outs and resending", .timeLimit(.minutes(10)))
struct TimeoutTests {
    private static let short = DaemonTimeouts(connect: .milliseconds(500), reply: .milliseconds(500), personReply: .seconds(600))

    private static func add(_ account: String) -> Request {
        .add(["class": "genp", "svce": "timeouts", "acct": .string(account), "v_Data": .data(Data("secret".utf8))])
    }

    private static func find(_ account: String) -> Request {
        .copyMatching(["class": "genp", "svce": "timeouts", "acct": .string(account)])
    }

    /// The status and reason of a failure answer.
    private static func failure(_ response: Response) -> (KeychainStatus, String)? {
        guard case .failure(let status, let reason) = response else { return nil }
        return (status, reason)
    }

    @Test(.timeLimit(.minutes(1))) func aSilentDaemonsRequestsTimeOutOnBothPaths() async throws {
        let silent = try SilentDaemon()
        let client = DaemonKeychain(socketPath: silent.socketPath, timeouts: Self.short)
        let blocking = try #require(Self.failure(client.sendBlocking(Self.add("a"))))
        #expect(blocking.0 == .notAvailable)
        #expect(blocking.1.contains("did not answer within 500 ms"))
        #expect(blocking.1.contains("may or may not have taken effect"))
        let suspended = try #require(Self.failure(await client.send(Self.find("a"))))
        #expect(suspended.0 == .notAvailable)
        #expect(suspended.1.contains("did not answer within 500 ms"))
        // Many at once, threads and tasks: every one of them is answered.
        let answered = Counter()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    if case .failure(.notAvailable, _) = await client.send(Self.find("\(index)")) { answered.add() }
                }
            }
        }
        #expect(answered.value == 8)
        let keystoreError = #expect(throws: KeystoreError.self) { _ = try client.blocking.lockStatus() }
        #expect(keystoreError?.status == .notAvailable)
    }

    @Test func requestsThatMayWaitForAPersonGetTheLongTimeOut() {
        let timeouts = DaemonTimeouts.standard
        #expect(timeouts.connect == .seconds(5))
        #expect(timeouts.reply == .seconds(30))
        for kind in Request.Kind.allCases {
            // The prompt agent's standing request has no deadline: it is answered when a program asks.
            let expected: Duration? =
                kind == .awaitPrompt
                ? nil
                : [
                    .unlock, .setPasscode, .changePasscode, .removePasscode, .setEraseAfterFailedAttempts, .appsAdd, .appsRemove,
                    .unlockWithPrompt, .answerPrompt, .proveOwner, .proveOwnerWithPrompt, .authenticate, .exportBackup, .restoreBackup, .addEach,
                    .syncState, .syncNow, .syncAccount, .deviceKeyBinding, .auditRecords, .auditSetting,
                ]
                .contains(kind) ? .seconds(600) : .seconds(30)
            #expect(timeouts.reply(for: kind) == expected, "\(kind)")
        }
    }

    @Test(.timeLimit(.minutes(1))) func aStoppedDaemonIsAnsweredNotWaitedFor() async throws {
        let daemon = try DaemonProcess()
        let pid = daemon.process.pid
        #expect(kill(pid, SIGSTOP) == 0)
        defer {
            kill(pid, SIGCONT)
            _ = daemon.terminate()
        }
        let client = DaemonKeychain(socketPath: daemon.socketPath, timeouts: Self.short)
        let add = try #require(Self.failure(client.sendBlocking(Self.add("stopped"))))
        #expect(add.0 == .notAvailable)
        #expect(add.1.contains("may or may not have taken effect"))
        let find = try #require(Self.failure(await client.send(Self.find("stopped"))))
        #expect(find.0 == .notAvailable)
        // Once the daemon runs again, a new client is served.
        kill(pid, SIGCONT)
        #expect(Self.failure(daemon.client().sendBlocking(Self.find("nothing-here")))?.0 == .itemNotFound)
    }

    @Test(.timeLimit(.minutes(1))) func aFullBacklogTimesOutTheConnect() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-full-\(UUID().uuidString.prefix(8))").path
        let listening = try UnixSocket.listen(at: path, mode: 0o600, backlog: 0)
        var queued: [Int32] = []
        defer {
            queued.forEach { close($0) }
            close(listening)
            unlink(path)
        }
        // Fill the backlog: connections the "daemon" never accepts, until the kernel refuses more.
        for _ in 0..<64 {
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if result != 0 {
                close(descriptor)
                break
            }
            queued.append(descriptor)
        }
        let client = DaemonKeychain(socketPath: path, timeouts: Self.short)
        let blocking = try #require(Self.failure(client.sendBlocking(Self.add("a"))))
        #expect(blocking.0 == .notAvailable)
        #expect(blocking.1.contains("did not accept the connection within 500 ms"))
        #expect(blocking.1.contains("nothing was sent"))
        let suspended = try #require(Self.failure(await client.send(Self.find("a"))))
        #expect(suspended.0 == .notAvailable)
        #expect(suspended.1.contains("did not accept the connection"))
    }

    @Test(.timeLimit(.minutes(1))) func aWriteThatReachedTheDaemonIsNeverSentAgain() async throws {
        let dropping = try DroppingDaemon()
        let client = DaemonKeychain(
            socketPath: dropping.socketPath, timeouts: DaemonTimeouts(connect: .seconds(5), reply: .seconds(30), personReply: .seconds(30)))
        let blocking = try #require(Self.failure(client.sendBlocking(Self.add("a"))))
        #expect(blocking.0 == .notAvailable)
        #expect(blocking.1.contains("may or may not have taken effect"))
        let suspended = try #require(Self.failure(await client.send(Self.add("b"))))
        #expect(suspended.0 == .notAvailable)
        #expect(suspended.1.contains("may or may not have taken effect"))
        #expect(dropping.framesReceived == 2)  // one each: neither add was resent
        // A find changes nothing, so it is sent once more on a new connection.
        _ = client.sendBlocking(Self.find("a"))
        #expect(dropping.framesReceived == 4)
    }
}

/// A "daemon" that reads each connection's first complete request frame, counts it, and closes the
/// connection without answering: what a client sees when a daemon dies after receiving a request.
final class DroppingDaemon: @unchecked Sendable {
    let socketPath: String
    private let listening: Int32
    private let lock = NSLock()
    private var frames = 0

    init() throws {
        socketPath = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-drop-\(UUID().uuidString.prefix(8))").path
        listening = try UnixSocket.listen(at: socketPath, mode: 0o600)
        let listening = listening
        Thread { [self] in
            while true {
                let connection = accept(listening, nil, nil)
                guard connection >= 0 else { return }
                var decoder = FrameDecoder(limits: .requests)
                var buffer = [UInt8](repeating: 0, count: 65536)
                reading: while true {
                    let count = recv(connection, &buffer, buffer.count, 0)
                    guard count > 0 else { break }
                    decoder.append(buffer[0..<count])
                    if (try? decoder.nextFrame()) != nil {
                        lock.withLock { frames += 1 }
                        break reading
                    }
                }
                shutdown(connection, Int32(SHUT_RDWR))
                close(connection)
            }
        }.start()
    }

    /// How many complete request frames arrived.
    var framesReceived: Int { lock.withLock { frames } }

    deinit {
        shutdown(listening, Int32(SHUT_RDWR))
        close(listening)
        unlink(socketPath)
    }
}
