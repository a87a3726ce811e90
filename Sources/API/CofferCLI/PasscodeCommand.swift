import ArgumentParser
import Foundation
import KeychainClient
import KeychainModel

/// `coffer passcode set | change | remove | erase-on-failures`.
struct PasscodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passcode",
        abstract: "Set, change or remove the keychain passcode.",
        discussion: """
            When standard input is not a terminal, passcodes are read from it one per line \
            ('change' reads the old passcode, then the new one).
            """,
        subcommands: [Set.self, Change.self, Remove.self, EraseOnFailures.self])

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set the first passcode (at least \(PasscodePolicy.minimumLength) characters).")

        func run() throws {
            try CLIFailure.reporting {
                let client = CLIKeychain.shared
                guard try !client.blocking.lockStatus().passcodeSet else { throw KeystoreError.passcodeAlreadySet }
                try client.blocking.setPasscode(PasscodeInput().new("New passcode"))
            }
            print("passcode set")
        }
    }

    struct Change: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "change", abstract: "Change the passcode; needs the current one.")

        func run() throws {
            try CLIFailure.reporting {
                let client = CLIKeychain.shared
                guard try client.blocking.lockStatus().passcodeSet else { throw KeystoreError.noPasscodeSet }
                let input = PasscodeInput()
                let old = try input.existing("Current passcode")
                let new = try input.new("New passcode")
                try client.blocking.changePasscode(from: old, to: new)
            }
            print("passcode changed")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove the passcode; items of class WhenPasscodeSetThisDeviceOnly are destroyed.")

        func run() throws {
            try CLIFailure.reporting {
                let client = CLIKeychain.shared
                guard try client.blocking.lockStatus().passcodeSet else { throw KeystoreError.noPasscodeSet }
                try client.blocking.removePasscode(current: PasscodeInput().existing("Current passcode"))
            }
            print("passcode removed")
        }
    }

    struct EraseOnFailures: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "erase-on-failures",
            abstract: "Erase the class keys (and so every item) after \(PasscodePolicy.eraseThreshold) wrong passcodes in a row.")

        @Argument(help: "'on' or 'off'.")
        var setting: Toggle

        enum Toggle: String, ExpressibleByArgument { case on, off }

        func run() throws {
            try CLIFailure.reporting {
                let client = CLIKeychain.shared
                guard try client.blocking.lockStatus().passcodeSet else { throw KeystoreError.noPasscodeSet }
                try client.blocking.setEraseAfterFailedAttempts(setting == .on, passcode: PasscodeInput().existing("Current passcode"))
            }
            print("erase after \(PasscodePolicy.eraseThreshold) failed attempts: \(setting.rawValue)")
        }
    }
}
