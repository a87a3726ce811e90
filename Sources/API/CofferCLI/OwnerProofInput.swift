import Foundation
import KeychainClient
import KeychainModel
import Query
import SSHAgent

#if canImport(Glibc)
import Glibc
#endif

/// Proving that the CLI's connection acts for the keychain's owner, for what the system daemon keeps to the owner
/// (the SSH agent's keys, ``OwnerAccessGroups``): with the passcode read on the terminal or from standard input, or,
/// with neither (an agent started in the background or by systemd), by the person at the prompt agent.
enum OwnerProofInput {
    /// Proves on `client`'s connection; `reason` is what the prompt agent shows. Returns whether the keychain
    /// accepted the proof; a refusal is written to standard error, never the passcode.
    static func prove(_ client: any KeychainClient, reason: String, command: String) -> Bool {
        do {
            if let passcode = try typedPasscode() {
                try client.blocking.proveOwner(passcode: passcode)
                return true
            }
            switch client.sendBlocking(.proveOwnerWithPrompt(reason: reason)) {
            case .status(let status) where status.isSuccess: return true
            case .authenticationFailure(let failure): throw CLIFailure(failure.reason)
            case let other: try other.keystoreResult()
            }
            return true
        } catch {
            let text = (error as? CLIFailure)?.message ?? "\(error)"
            FileHandle.standardError.write(Data("coffer \(command): \(text)\n".utf8))
            return false
        }
    }

    /// Makes sure `client`'s connection may use the owner's groups, proving it when the keychain refuses them.
    static func ensure(_ client: any KeychainClient, reason: String, command: String) throws {
        let probe: QueryDictionary = [
            .string(QueryKey.itemClass): .string(QueryConstant.classKey), .string(QueryKey.accessGroup): .string(OwnerAccessGroups.sshAgent),
        ]
        do {
            _ = try client.sendBlocking(.copyMatching(probe)).itemResult()
            return
        } catch  where error.status != .missingEntitlement {
            return
        } catch {}
        guard prove(client, reason: reason, command: command) else {
            throw CLIFailure("\(command): the SSH agent's keys are the keychain owner's, and this connection did not prove the keychain passcode")
        }
    }

    /// An ``AgentOwnerAccess`` that proves as ``prove(_:reason:command:)`` does.
    static func access(_ client: any KeychainClient, reason: String, command: String) -> AgentOwnerAccess {
        AgentOwnerAccess { prove(client, reason: reason, command: command) }
    }

    /// The passcode from the terminal, else a line of standard input when it is not a terminal and holds one; nil
    /// when neither is there.
    private static func typedPasscode() throws -> SecretBytes? {
        if let typed = try PasscodeInput.fromTerminal("Keychain passcode") { return typed }
        guard isatty(STDIN_FILENO) == 0 else { return nil }
        do {
            return try PasscodeInput().existing("Keychain passcode")
        } catch PasscodeInput.Failure.endOfInput {
            return nil
        }
    }
}
