import CofferTestSupport
import DaemonProtocol
import Foundation
import KeychainSelection
import KeychainModel
import Keystore
import Query
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// `cofferd` as a process, driven through the client transport.
@Suite("cofferd end to end", .serialized, .timeLimit(.minutes(10)))
struct DaemonIntegrationTests {
    private func item(_ account: String, _ secret: String? = nil) -> QueryDictionary {
        var query: QueryDictionary = ["class": "genp", "svce": "daemon-test", "acct": .string(account)]
        if let secret { query.entries["v_Data"] = .data(Data(secret.utf8)) }
        return query
    }

    private func read(_ client: DaemonKeychain, _ account: String) throws(KeychainStatus) -> Data? {
        var query = item(account)
        query.entries["r_Data"] = true
        guard case .data(let data)? = try client.statusCalls.copyMatching(query) else { return nil }
        return data
    }

    @Test func itemsBehaveAsInTheEmbeddedKeychain() throws {
        let daemon = try DaemonProcess()
        let client = daemon.client()
        _ = try client.statusCalls.add(item("a", "secret-a"))
        #expect(try read(client, "a") == Data("secret-a".utf8))
        #expect(throws: KeychainStatus.duplicateItem) { _ = try client.statusCalls.add(item("a", "again")) }
        #expect(throws: KeychainStatus.itemNotFound) { _ = try client.statusCalls.copyMatching(item("missing")) }
        #expect(throws: KeychainStatus.param) { _ = try client.statusCalls.add(["class": "genp", "v_Data": "not data"]) }
        #expect(throws: KeychainStatus.noSuchAttribute) { _ = try client.statusCalls.add(["class": "genp", "srvr": "x"]) }
        try client.statusCalls.update(item("a"), attributesToUpdate: ["v_Data": .data(Data("new".utf8))])
        #expect(try read(client, "a") == Data("new".utf8))
        try client.statusCalls.delete(item("a"))
        #expect(throws: KeychainStatus.itemNotFound) { try client.statusCalls.delete(item("a")) }
        #expect(daemon.terminate() == 0)
    }

    @Test func theKeychainFilesBelongToTheDaemonsFolder() throws {
        let daemon = try DaemonProcess()
        _ = try daemon.client().statusCalls.add(item("a", "x"))
        let folder = daemon.keychainFolder()
        let mode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("items.sqlite").path))
        _ = daemon.terminate()
    }

    @Test func lockStateLivesInTheDaemon() throws {
        // Set a passcode on the daemon's keychain files directly, before the daemon opens them.
        let daemon = try DaemonProcess { folder in
            try Keystore.open(folder: KeychainFolder(url: folder)).setPasscode(SecretBytes(copying: Array("1234".utf8)), kdf: .insecureForTesting)
        }
        let client = daemon.client()
        #expect(try client.statusCalls.lockStatus().lockState == .beforeFirstUnlock)
        #expect(throws: KeychainStatus.interactionNotAllowed) { _ = try client.statusCalls.add(item("a", "x")) }
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 1, retryAfter: .zero)) {
            try client.statusCalls.unlock(passcode: SecretBytes(copying: Array("0000".utf8)))
        }
        try client.statusCalls.unlock(passcode: SecretBytes(copying: Array("1234".utf8)))
        // A second client (another program) sees the same, shared state.
        let other = daemon.client()
        #expect(try other.statusCalls.lockStatus().lockState == .unlocked)
        _ = try other.statusCalls.add(item("a", "x"))
        try client.statusCalls.lock()
        #expect(try other.statusCalls.lockStatus().lockState == .locked)
        #expect(throws: KeychainStatus.interactionNotAllowed) { _ = try read(other, "a") }
        try other.statusCalls.delete(item("a"))
        #expect(daemon.terminate() == 0)
    }

    @Test func passcodeIsManagedThroughTheDaemon() throws {
        let daemon = try DaemonProcess()
        let client = daemon.client()
        func secret(_ text: String) -> SecretBytes { SecretBytes(copying: Array(text.utf8)) }
        #expect(throws: KeystoreError.passcodeTooShort(minimum: 4)) { try client.statusCalls.setPasscode(secret("123")) }
        try client.statusCalls.setPasscode(secret("first-code"))
        #expect(throws: KeystoreError.passcodeAlreadySet) { try client.statusCalls.setPasscode(secret("other-code")) }
        #expect(try client.statusCalls.lockStatus().passcodeSet)
        _ = try client.statusCalls.add(item("kept", "value"))
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 1, retryAfter: .zero)) {
            try client.statusCalls.changePasscode(from: secret("not-it"), to: secret("second-code"))
        }
        try client.statusCalls.changePasscode(from: secret("first-code"), to: secret("second-code"))
        try client.statusCalls.setEraseAfterFailedAttempts(true, passcode: secret("second-code"))
        #expect(try client.statusCalls.lockStatus().eraseAfterFailedAttempts)
        try client.statusCalls.lock()
        #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 1, retryAfter: .zero)) { try client.statusCalls.unlock(passcode: secret("first-code")) }
        try client.statusCalls.unlock(passcode: secret("second-code"))
        #expect(try read(client, "kept") == Data("value".utf8))
        try client.statusCalls.removePasscode(current: secret("second-code"))
        #expect(try !client.statusCalls.lockStatus().passcodeSet)
        #expect(try read(client, "kept") == Data("value".utf8))
        #expect(daemon.terminate() == 0)
    }

    @Test func autoLockAfterIdleTime() throws {
        let daemon = try DaemonProcess(extraArguments: ["--auto-lock", "1"]) { folder in
            try Keystore.open(folder: KeychainFolder(url: folder)).setPasscode(SecretBytes(copying: Array("1234".utf8)), kdf: .insecureForTesting)
        }
        let client = daemon.client()
        try client.statusCalls.unlock(passcode: SecretBytes(copying: Array("1234".utf8)))
        #expect(try client.statusCalls.lockStatus().lockState == .unlocked)
        Thread.sleep(forTimeInterval: 2.5)
        #expect(try client.statusCalls.lockStatus().lockState == .locked)
        _ = daemon.terminate()
    }

    @Test func perUserModeRefusesOtherUsers() throws {
        // The per-user daemon serves only the uid that runs it; this process is that uid, so it is served.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cofferd-user-\(UUID().uuidString)")
        var environment = ProcessInfo.processInfo.environment
        environment["COFFER_HOME"] = directory.appendingPathComponent("keychain").path
        let process = try ChildProcess(
            [DaemonProcess.executable.path, "--user", "--socket", directory.appendingPathComponent("socket").path],
            environment: environment, output: .null, errors: .null)
        defer { process.terminate() }
        let socket = directory.appendingPathComponent("socket").path
        for _ in 0..<250 where !FileManager.default.fileExists(atPath: socket) { usleep(20_000) }
        let mode = try FileManager.default.attributesOfItem(atPath: socket)[.posixPermissions] as? Int
        #expect(mode == 0o600, "only the owner may connect to a per-user socket")
        let client = DaemonKeychain(socketPath: socket)
        _ = try client.statusCalls.add(item("mine", "x"))
        #expect(try read(client, "mine") == Data("x".utf8))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("keychain/items.sqlite").path))
    }

    @Test func aDaemonThatDoesNotAnswerIsNotAvailable() throws {
        let client = DaemonKeychain(socketPath: "/nonexistent/coffer/socket")
        #expect(throws: KeychainStatus.notAvailable) { _ = try client.statusCalls.copyMatching(item("a")) }
        #expect(KeychainLocation.choice(environment: ["COFFER_SOCKET": "/x/socket"]) == .daemon(socketPath: "/x/socket"))
        #expect(
            KeychainLocation.choice(environment: ["COFFER_SOCKET": "/x/socket", "COFFER_HOME": "/h"])
                == .embedded(KeychainFolder.fromEnvironment(["COFFER_HOME": "/h"])))
    }

    /// Each kind of malformed frame, as raw bytes.
    static let malformedFrames: [(String, [UInt8])] = {
        let magic: [UInt8] = Array("CFRP".utf8)
        let version: [UInt8] = [0, 1]
        return [
            ("bad magic", Array("XXXX".utf8) + version + [0, 0, 0, 0]),
            ("wrong version", magic + [0, 99] + [0, 0, 0, 0]),
            ("oversized", magic + version + [0x7F, 0xFF, 0xFF, 0xFF]),
            ("garbage payload", magic + version + [0, 0, 0, 4] + [0xDE, 0xAD, 0xBE, 0xEF]),
            ("truncated", magic + version + [0, 0, 0, 40] + [1, 2, 3]),
        ]
    }()

    @Test(arguments: DaemonIntegrationTests.malformedFrames)
    func malformedFramesCloseOnlyThatConnection(kind: String, bytes: [UInt8]) throws {
        let daemon = try DaemonProcess()
        let client = daemon.client()
        _ = try client.statusCalls.add(item("a", "x"))
        let raw = try DaemonProcess.connect(daemon.socketPath)
        defer { close(raw) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(raw, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = bytes.withUnsafeBytes { send(raw, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if kind == "truncated" { shutdown(raw, Int32(SHUT_WR)) }
        var buffer = [UInt8](repeating: 0, count: 64)
        #expect(recv(raw, &buffer, buffer.count, 0) == 0, "\(kind): the daemon closes the connection")
        // Everyone else is still served.
        #expect(try read(client, "a") == Data("x".utf8))
        #expect(daemon.terminate() == 0)
    }

    @Test func sixteenConcurrentConnections() async throws {
        let daemon = try DaemonProcess()
        let operations = Int(ProcessInfo.processInfo.environment["COFFER_DAEMON_OPERATIONS"] ?? "") ?? 1_000
        try await withThrowingTaskGroup(of: Void.self) { group in
            let socketPath = daemon.socketPath
            for worker in 0..<16 {
                group.addTask {
                    let client = DaemonKeychain(socketPath: socketPath)
                    for round in 0..<(operations / 4) {
                        let account = "w\(worker)-\(round)"
                        _ = try await client.add(self.item(account, "v\(round)"))
                        var find = self.item(account)
                        find.entries["r_Data"] = true
                        guard try await client.copyMatching(find) == .data(Data("v\(round)".utf8)) else { throw KeychainStatus.internal }
                        try await client.update(self.item(account), attributesToUpdate: ["v_Data": .data(Data("u\(round)".utf8))])
                        if round % 2 == 0 { try await client.delete(self.item(account)) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let client = daemon.client()
        for worker in 0..<16 {
            for round in stride(from: 1, to: operations / 4, by: 2) {
                #expect(try read(client, "w\(worker)-\(round)") == Data("u\(round)".utf8))
            }
        }
        #expect(daemon.terminate() == 0)
    }

    @Test func sigkillUnderLoadLosesNoAcknowledgedWrite() throws {
        let daemon = try DaemonProcess()
        let acknowledged = LockedCounter()
        let socketPath = daemon.socketPath
        let writer = Thread {
            let client = DaemonKeychain(socketPath: socketPath)
            for index in 0..<100_000 {
                do {
                    _ = try client.statusCalls.add(self.item("k\(index)", "v\(index)"))
                    acknowledged.set(index + 1)
                } catch {
                    return
                }
            }
        }
        writer.start()
        Thread.sleep(forTimeInterval: 1.5)
        daemon.kill9()
        Thread.sleep(forTimeInterval: 0.2)
        let count = acknowledged.value
        #expect(count > 0)
        let restarted = try DaemonProcess(directory: daemon.directory)
        let client = restarted.client()
        for index in 0..<count {
            #expect(try read(client, "k\(index)") == Data("v\(index)".utf8), "acknowledged k\(index) lost")
        }
        #expect(restarted.terminate() == 0)
    }
}

/// A counter shared with a writer thread.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    var value: Int { lock.withLock { current } }
    func set(_ value: Int) { lock.withLock { current = value } }
}
