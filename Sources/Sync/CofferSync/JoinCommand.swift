import ArgumentParser
import Foundation
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
        let sync = try LocalKeychain.sync()
        try LocalKeychain.authenticate(sync, reason: "Unlock the keychain to join a sync account.")
        let deviceName = name ?? LocalKeychain.hostName
        if recoveryKey {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw ValidationError("no recovery key on standard input")
            }
            try await sync.join(server: endpoint, password: password, deviceName: deviceName, recoveryKey: try RecoveryKey(text: line))
        } else {
            let pending = try await sync.requestToJoin(server: endpoint, password: password, deviceName: deviceName)
            // Written at once (not through print's buffer): a script reads the code while this waits.
            FileHandle.standardOutput.write(
                Data(
                    """
                    Pairing code: \(pending.code.text)
                    On a device of the account, run: coffer sync approve \(pending.code.text)
                    Waiting for approval…

                    """.utf8))
            try await sync.completeJoin(pending)
        }
        let progress = LocalKeychain.progressLine
        let report = try await sync.syncNow(progress: progress)
        LocalKeychain.endProgress(progress != nil)
        print("Joined as \(deviceName); \(report.applied) item(s) received.")
    }
}
