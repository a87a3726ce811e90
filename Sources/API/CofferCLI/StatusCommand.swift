import ArgumentParser
import Foundation
import KeychainClient
import KeychainModel

/// `coffer status`: the passcode, lock state and throttle of the keychain.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show whether a passcode is set, the lock state, failed attempts and any delay.",
        discussion: """
            With the embedded keychain every coffer command is a new process, so a keychain with a \
            passcode reports 'before-first-unlock', as a phone does after a reboot. Behind the daemon \
            the lock state is the daemon's, shared by all of the user's programs.
            """)

    @Flag(name: .customLong("json"), help: "Print one JSON object instead (for scripts).")
    var json = false

    func run() throws {
        let choice = CLIKeychain.choice
        let status = try CLIFailure.reporting { try CLIKeychain.shared.blocking.lockStatus() }
        let location =
            switch choice {
            case .embedded(let folder): folder.url.path
            case .daemon(let socket): "daemon at \(socket)"
            }
        if json {
            try JSONOutput.print(
                [
                    "keychain": location, "passcodeSet": status.passcodeSet, "lockState": status.lockState.rawValue,
                    "failedAttempts": status.failedAttempts, "retryAfterSeconds": status.retryAfter.wholeSeconds,
                    "eraseAfterFailedAttempts": status.eraseAfterFailedAttempts,
                ] as [String: Any])
            return
        }
        print(
            """
            keychain: \(location)
            passcode: \(status.passcodeSet ? "set" : "not set")
            lock state: \(status.lockState.rawValue)
            failed attempts: \(status.failedAttempts)
            retry after: \(status.retryAfter.wholeSeconds) s
            erase after \(PasscodePolicy.eraseThreshold) failed attempts: \(status.eraseAfterFailedAttempts ? "on" : "off")
            """)
    }
}
