import ArgumentParser
import Foundation
import KeychainClient
import KeychainModel

/// `coffer unlock`: unlocks the keychain with its passcode (the daemon's lock state, shared by the user's programs).
struct UnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Unlock the keychain (read the passcode from standard input when it is not a terminal).",
        discussion: """
            The unlock lasts until coffer lock, the daemon's auto-lock or logout: in a login session coffer \
            starts cofferd --user for a keychain with a passcode, and every program of yours shares its lock \
            state. Without a daemon the unlock lasts only for this process. \
            With --prompt the daemon asks the person through the session's prompt agent (coffer prompt-agent) \
            and this command never sees the passcode.
            """)

    @Flag(name: .long, help: "Ask the person through the daemon's prompt agent instead of reading the passcode here.")
    var prompt = false

    func run() throws {
        try CLIFailure.reporting {
            let client = CLIKeychain.shared
            if prompt {
                try client.blocking.unlockWithPrompt()
            } else {
                try client.blocking.unlock(passcode: PasscodeInput().existing("Keychain passcode"))
            }
        }
        print("unlocked")
        if case .embedded = CLIKeychain.choice {
            FileHandle.standardError.write(
                Data(
                    "coffer: no daemon serves this keychain, so the unlock lasts for this command only; run cofferd --user, or log in to a session (XDG_RUNTIME_DIR) where coffer starts it\n"
                        .utf8))
        }
    }
}

/// `coffer lock`: locks the keychain: items of the WhenUnlocked classes become unreadable until the next unlock.
struct LockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock", abstract: "Lock the keychain.",
        discussion: """
            The system daemon lets only the keychain's owner lock it, since any program may run this command: \
            it then asks for the keychain passcode (read from standard input when it is not a terminal).
            """)

    func run() throws {
        try CLIFailure.reporting {
            let calls = CLIKeychain.shared.blocking
            do {
                try calls.lock()
            } catch KeystoreError.ownerProofRequired {
                try calls.proveOwner(passcode: PasscodeInput().existing("Keychain passcode"))
                try calls.lock()
            }
        }
        print("locked")
    }
}
