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

    func run() throws {
        let choice = KeychainLocation.choice()
        let status = try CLIFailure.reporting { try CLIKeychain.shared.blocking.lockStatus() }
        let location = switch choice {
        case .embedded(let folder): folder.url.path
        case .daemon(let socket): "daemon at \(socket)"
        }
        print("""
            keychain: \(location)
            passcode: \(status.passcodeSet ? "set" : "not set")
            lock state: \(status.lockState.rawValue)
            failed attempts: \(status.failedAttempts)
            retry after: \(status.retryAfter.wholeSeconds) s
            erase after \(PasscodePolicy.eraseThreshold) failed attempts: \(status.eraseAfterFailedAttempts ? "on" : "off")
            """)
    }
}
