import ArgumentParser
import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations

#if canImport(Glibc)
import Glibc
#endif

/// `coffer prompt-agent`: the session's trusted prompt, polkit's model. It registers with cofferd, waits
/// for questions (a program asking to unlock), asks the person through pinentry or on its terminal, and
/// sends the passcode to the daemon: no program ever sees it.
struct PromptAgentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prompt-agent",
        abstract: "Answer the daemon's passcode prompts for this session (through pinentry or the terminal).",
        discussion: """
            Start it once per login session (the systemd user unit does). Programs that need the keychain \
            unlocked ask cofferd, and cofferd asks this agent, which shows who is asking. Wrong passcodes \
            typed here count toward the keychain's delays and, when turned on, its erase after ten; \
            passcodes other programs send do not. One agent runs per user. The system daemon registers an \
            agent only once it has proved the keychain passcode, which it asks for when it starts; after an \
            erase, it asks for the new passcode.
            """)

    @Option(name: .long, help: "The pinentry program to ask with (default: pinentry on PATH, or the terminal when there is one).")
    var pinentry: String?

    @Flag(name: .long, help: "Ask on this terminal instead of through pinentry.")
    var terminal = false

    @Option(name: .long, help: "How many times to ask again after a wrong passcode before giving up on a prompt.")
    var retries = 2

    func run() throws {
        guard case .daemon = CLIKeychain.choice else {
            throw CLIFailure("the prompt agent works with the daemon; set COFFER_SOCKET or start cofferd")
        }
        Self.acceptStopSignals()
        let asker = try PasscodeAsker(pinentry: pinentry, terminal: terminal)
        let calls = CLIKeychain.shared.blocking
        let owner = AgentOwnerSteps(asker: asker, calls: calls, retries: retries)
        while true {
            let prompt: Prompt
            do {
                prompt = try calls.awaitPrompt()
            } catch .cancelled {
                continue
            } catch .ownerProofRequired {
                try owner.proveOwner()
                continue
            } catch {
                throw CLIFailure(error)
            }
            answer(prompt, asker: asker, calls: calls, owner: owner)
        }
    }

    /// Unblocks the signals that stop a long-running agent (a parent such as a test runner or a session
    /// manager may have started it with them blocked, and the blocked mask survives exec), before any
    /// thread is started so that every thread inherits the mask.
    private static func acceptStopSignals() {
        var stopping = sigset_t()
        sigemptyset(&stopping)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&stopping, signal) }
        pthread_sigmask(SIG_UNBLOCK, &stopping, nil)
    }

    /// Asks until the passcode is right, the person cancels, or the retries run out.
    private func answer(_ prompt: Prompt, asker: PasscodeAsker, calls: BlockingKeychainCalls, owner: AgentOwnerSteps) {
        var error: String?
        for _ in 0...max(retries, 0) {
            let passcode: SecretBytes?
            do {
                passcode = try asker.ask(prompt.message, error: error)
            } catch {
                passcode = nil
            }
            do {
                try calls.answerPrompt(id: prompt.id, passcode: passcode)
                return
            } catch .wrongPasscode(let failed, let retryAfter) {
                error = KeystoreError.wrongPasscode(failedAttempts: failed, retryAfter: retryAfter).description
                if retryAfter > .zero { break }
            } catch .erasedAfterFailedAttempts {
                FileHandle.standardError.write(Data("coffer prompt-agent: \(KeystoreError.erasedAfterFailedAttempts.description)\n".utf8))
                owner.chooseNewPasscode()
                return
            } catch {
                // Throttled, erased, withdrawn by the program, or the daemon went away: nothing more to ask.
                FileHandle.standardError.write(Data("coffer prompt-agent: \(error.description)\n".utf8))
                return
            }
        }
        try? calls.answerPrompt(id: prompt.id, passcode: nil)
    }
}
