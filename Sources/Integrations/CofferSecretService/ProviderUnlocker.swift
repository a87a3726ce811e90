import KeychainSelection
import KeychainModel
import Prompting
import SecretService

/// How `coffer-secret-service` unlocks when a client's prompt asks: through cofferd's prompt agent when the
/// keychain is the daemon's; otherwise in this process, asking on the terminal or through pinentry
/// (``PasscodePrompter/standard(environment:)``), three tries at most.
enum ProviderUnlocker {
    /// The unlocker for `client`.
    static func make(client: any KeychainClient, environment: [String: String]) -> SecretServiceUnlocker {
        if client is DaemonKeychain {
            return SecretServiceUnlocker { (try? client.blocking.unlockWithPrompt()) != nil }
        }
        guard let prompter = PasscodePrompter.standard(environment: environment) else { return .unavailable }
        return SecretServiceUnlocker {
            var retryMessage: String?
            for _ in 0..<3 {
                let question = PasscodeQuestion(
                    title: "Unlock the keychain",
                    description: "A program asks the Secret Service provider (coffer-secret-service) to unlock your keychain.",
                    error: retryMessage, timeout: .seconds(120))
                guard let passcode = try? prompter.askPasscode(question) else { return false }
                do throws(KeystoreError) {
                    try client.blocking.unlock(passcode: passcode)
                    return true
                } catch .wrongPasscode {
                    retryMessage = "Wrong passcode."
                } catch {
                    return false
                }
            }
            return false
        }
    }
}
