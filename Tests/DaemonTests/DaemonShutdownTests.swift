import CofferTestSupport
import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations
import Keystore
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM stops accepting, lets the request being answered finish and be answered, then exits 0.
@Suite("cofferd shutdown")
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
}

/// A response handed from a thread to the test.
final class LockedResponse: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Response?
    func set(_ response: Response) { lock.withLock { stored = response } }
    var value: Response? { lock.withLock { stored } }
}
