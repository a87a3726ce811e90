import CofferTestSupport
import Daemon
import Foundation
import KeychainSelection
import KeychainModel
import KeychainOperations
import Keystore
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM stops accepting, lets the request being answered finish and be answered, then exits 0.
@Suite("cofferd shutdown", .timeLimit(.minutes(10)))
struct DaemonShutdownTests {
    @Test(.timeLimit(.minutes(1))) func aRequestInFlightAtSigtermIsAnswered() throws {
        // A passcode with a slow KDF (N = 2^16), so that the unlock is still running when SIGTERM comes.
        let daemon = try DaemonProcess { folder in
            try Keystore.open(folder: KeychainFolder(url: folder)).setPasscode(SecretBytes(copying: Array("1234".utf8)), kdf: PasscodeKDF(logN: 16))
        }
        let client = daemon.client()
        #expect(try client.statusCalls.lockStatus().lockState == .beforeFirstUnlock)
        let answer = LockedResponse()
        let answered = DispatchSemaphore(value: 0)
        Thread {
            answer.set(client.sendBlocking(.unlock(passcode: SecretBytes(copying: Array("1234".utf8)))))
            answered.signal()
        }.start()
        usleep(50_000)
        daemon.process.signal(SIGTERM)
        #expect(answered.wait(timeout: .now() + 30) == .success)
        #expect(answer.value == .status(.success))
        #expect(daemon.process.wait(timeout: .seconds(30))?.succeeded == true)
        #expect(throws: (any Error).self) { _ = try DaemonProcess.connect(daemon.socketPath) }
    }

    /// Workers still answering or polling a socket while the server stops find their connections closed
    /// and drop their answers: nothing they touch has gone (an event loop being torn down once crashed the
    /// daemon this way).
    @Test(.timeLimit(.minutes(2))) func shutdownUnderTrafficReturnsWithoutCrashing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-shutdown-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        for round in 0..<12 {
            let folder = KeychainFolder(url: directory.appendingPathComponent("state-\(round)"))
            let socketPath = directory.appendingPathComponent("socket-\(round)").path
            let server = DaemonServer(configuration: DaemonConfiguration(mode: .user(folder: folder, uid: getuid()), socketPath: socketPath))
            let stopped = DispatchSemaphore(value: 0)
            Thread {
                try? server.run()
                stopped.signal()
            }.start()
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline, (try? DaemonProcess.connect(socketPath)).map({ close($0) }) == nil { usleep(2_000) }
            let senders = DispatchGroup()
            for _ in 0..<4 {
                senders.enter()
                Thread {
                    let client = DaemonKeychain(socketPath: socketPath)
                    var answered = 0
                    while answered < 10_000, (try? client.statusCalls.lockStatus()) != nil { answered += 1 }
                    senders.leave()
                }.start()
            }
            usleep(UInt32(20_000 + round * 5_000))
            server.shutdown()
            #expect(stopped.wait(timeout: .now() + 30) == .success, "round \(round): the server did not stop")
            #expect(senders.wait(timeout: .now() + 30) == .success, "round \(round): a client hung after the server stopped")
        }
    }
}

/// A response handed from a thread to the test.
final class LockedResponse: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Response?
    func set(_ response: Response) { lock.withLock { stored = response } }
    var value: Response? { lock.withLock { stored } }
}
