import ArgumentParser
import Foundation
import Keystore

/// `coffer status`: the passcode, lock state and throttle of the keychain.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show whether a passcode is set, the lock state, failed attempts and any delay.",
        discussion: """
            With the embedded keychain every coffer command is a new process, so a keychain with a \
            passcode reports 'before-first-unlock', as a phone does after a reboot.
            """)

    func run() throws {
        let keystore = try KeychainOpening.keystore()
        let status = try CLIFailure.reporting { try keystore.status() }
        print("""
            keychain: \(keystore.folder.url.path)
            passcode: \(status.passcodeSet ? "set" : "not set")
            lock state: \(status.lockState.rawValue)
            failed attempts: \(status.failedAttempts)
            retry after: \(status.retryAfter.wholeSeconds) s
            erase after \(ThrottlePolicy.eraseThreshold) failed attempts: \(status.eraseAfterFailedAttempts ? "on" : "off")
            """)
    }
}
