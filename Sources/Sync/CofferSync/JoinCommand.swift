import ArgumentParser
import Foundation
import SyncServer
import KeychainModel
import KeychainClient
import SyncClient

/// `coffer sync join DSN`: this keychain joins an account, approved by a trusted device or by the recovery key.
struct JoinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join an account: shows a pairing code to approve on a trusted device, then waits (10 minutes at most).",
        discussion: """
            On a device of the account, run `coffer sync approve CODE` with the code shown here. With no trusted \
            device left, pass --recovery-key and type the recovery key on standard input (after the password, on \
            the next line, when --password-stdin is given too).
            """
    )

    @OptionGroup var server: ServerConnectionOptions
    @Option(help: "This device's name in the account (default: the host name).") var name: String?
    @Flag(name: .customLong("recovery-key"), help: "Join with the account's recovery key, read from standard input.")
    var recoveryKey = false

    func run() async throws {
        let (endpoint, password) = try server.resolve()
        if let daemon = try DaemonSync.client() { return try await joinThroughDaemon(daemon, endpoint: endpoint, password: password) }
        let sync = try LocalKeychain.sync()
        try LocalKeychain.authenticate(sync, reason: "Unlock the keychain to join a sync account.")
        let deviceName = name ?? LocalKeychain.hostName
        if recoveryKey {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw ValidationError("no recovery key on standard input")
            }
            try await sync.join(server: endpoint, password: password, deviceName: deviceName, recoveryKey: try RecoveryKey(text: line))
            LocalKeychain.record(.joinedWithRecoveryKey, in: sync)
        } else {
            let pending = try await sync.requestToJoin(server: endpoint, password: password, deviceName: deviceName)
            LocalKeychain.record(.askedToJoin, in: sync)
            Self.showCode(pending.code.text)
            try await sync.completeJoin(pending)
            LocalKeychain.record(.joinedOnceApproved, in: sync)
        }
        let progress = LocalKeychain.progressLine
        let report = try await sync.syncNow(progress: progress)
        LocalKeychain.endProgress(progress != nil)
        print("Joined as \(deviceName); \(report.applied) item(s) received.")
    }

    /// Written at once (not through print's buffer): a script reads the code while this waits.
    private static func showCode(_ code: String) {
        FileHandle.standardOutput.write(
            Data(
                """
                Pairing code: \(code)
                On a device of the account, run: coffer sync approve \(code)
                Waiting for approval…

                """.utf8))
    }

    /// The join, run by cofferd for the keychain it serves.
    private func joinThroughDaemon(_ daemon: any KeychainClient, endpoint: ServerEndpoint, password: String) async throws {
        let deviceName = name ?? LocalKeychain.hostName
        let secret = SecretBytes(copying: Array(password.utf8))
        let reason = "Join your keychain to a sync account."
        if recoveryKey {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else { throw ValidationError("no recovery key on standard input") }
            _ = try await DaemonSync.account(
                daemon, .join(server: endpoint.dsn, password: secret, deviceName: deviceName, recoveryKey: SecretBytes(copying: Array(line.utf8))),
                reason: reason)
        } else {
            let answer = try await DaemonSync.account(daemon, .requestToJoin(server: endpoint.dsn, password: secret, deviceName: deviceName), reason: reason)
            guard case .pairingCode(let code) = answer else { throw CommandFailure("cofferd answered the join without a pairing code") }
            Self.showCode(code)
            _ = try await DaemonSync.account(daemon, .awaitJoin, reason: nil)
        }
        let report = try await DaemonSync.runNow(daemon)
        print("Joined as \(deviceName); \(report.applied) item(s) received.")
    }
}
