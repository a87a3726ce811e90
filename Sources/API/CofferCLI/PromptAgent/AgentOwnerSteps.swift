import Foundation
import KeychainClient
import KeychainModel

/// The two moments the prompt agent speaks for the owner rather than for a program: proving the keychain
/// passcode when it starts (the system daemon registers an agent only then, since its answers count toward
/// the erase), and choosing the new passcode after too many wrong ones erased the keychain (only the agent
/// that was running then may set it).
struct AgentOwnerSteps {
    let asker: PasscodeAsker
    let calls: BlockingKeychainCalls
    /// How many times to ask again after a wrong or refused passcode.
    let retries: Int

    /// Asks the person for the keychain passcode and proves it on the agent's connection. Throws when they
    /// cancel or the retries run out: an agent the daemon will not register has nothing to do.
    func proveOwner() throws {
        var error: String?
        for _ in 0...max(retries, 0) {
            guard
                let passcode = try asker.ask(
                    "Coffer's prompt agent is starting for this session. Enter the keychain passcode.", error: error)
            else {
                throw CLIFailure("the prompt agent needs the keychain passcode to start; it was cancelled")
            }
            do {
                try calls.proveOwner(passcode: passcode)
                return
            } catch .wrongPasscode(let failed, let retryAfter) {
                error = KeystoreError.wrongPasscode(failedAttempts: failed, retryAfter: retryAfter).description
                if retryAfter > .zero { break }
            } catch {
                throw CLIFailure(error)
            }
        }
        throw CLIFailure("the prompt agent needs the keychain passcode to start: \(error ?? "no passcode")")
    }

    /// After an erase: asks the person for a new passcode, twice, and sets it. Returns whether it was set;
    /// when the person cancels, the keychain stays without a passcode and this agent may set one later.
    @discardableResult
    func chooseNewPasscode() -> Bool {
        var error: String?
        for _ in 0...max(retries, 0) {
            do {
                guard
                    let first = try asker.ask(
                        "Too many wrong passcodes erased your keychain. Choose a new keychain passcode.", error: error),
                    let second = try asker.ask("Type the new keychain passcode again.", error: nil)
                else { return false }
                guard first.isEqual(to: second) else {
                    error = "the two passcodes do not match"
                    continue
                }
                try calls.setPasscode(first)
                FileHandle.standardError.write(Data("coffer prompt-agent: a new keychain passcode is set\n".utf8))
                return true
            } catch let failure as KeystoreError {
                error = failure.description
                if case .passcodeTooShort = failure { continue }
                FileHandle.standardError.write(Data("coffer prompt-agent: \(failure.description)\n".utf8))
                return false
            } catch {
                return false
            }
        }
        return false
    }
}
