import Foundation
import KeychainClient
import KeychainModel
import Query

#if canImport(Glibc)
import Glibc
#endif

/// What every item command shares: the keychain client, unlocking on a terminal, reading a
/// password given as a final `-w`, and reporting statuses as `security` does.
enum ItemCommandSupport {
    /// The long flag a final, value-less `-w` is rewritten to before parsing.
    static let passwordFromInputFlag = "--password-from-input"

    /// macOS `security` reads the password interactively when `-w` is the last argument; argument
    /// parsers need a value after `-w`, so a final `-w` is rewritten to ``passwordFromInputFlag``.
    static func rewritingTrailingPasswordFlag(_ arguments: [String]) -> [String] {
        guard arguments.last == "-w", arguments.first?.hasPrefix("add-") == true else { return arguments }
        return arguments.dropLast() + [passwordFromInputFlag]
    }

    /// The keychain the environment selects, unlocked first when it has a passcode and a terminal
    /// is there to ask for it. Without a terminal the keychain stays locked and class-A items fail
    /// with errSecInteractionNotAllowed (and the lock state is not even asked for).
    static func client(command: String) throws -> any KeychainClient {
        let client = CLIKeychain.shared
        guard PasscodeInput.terminalIsAvailable else { return client }
        let status: KeystoreStatus
        do {
            status = try client.blocking.lockStatus()
        } catch {
            throw CLIFailure("\(command): \(error.description)", exitCode: exitCode(for: error.status))
        }
        if status.passcodeSet, status.lockState != .unlocked, let passcode = try PasscodeInput.fromTerminal("Keychain passcode") {
            do {
                try client.blocking.unlock(passcode: passcode)
            } catch {
                throw CLIFailure("\(command): \(error.description)", exitCode: exitCode(for: error.status))
            }
        }
        return client
    }

    /// Runs a keychain call, turning a failing status into `security`'s exit code and a line that
    /// names the status and what to do.
    static func run<Result>(_ command: String, _ body: () throws(KeychainFailure) -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            throw failure(command, error)
        }
    }

    /// The line and exit code for a failed keychain call: the status by name and number, what it means,
    /// the keychain's reason when it gave one, and what to do.
    static func failure(_ command: String, _ error: KeychainFailure) -> CLIFailure {
        let status = error.status
        let reason = error.reason.map { " (\($0))" } ?? ""
        return CLIFailure(
            "\(command): \(status.name) (\(status.code)): \(status.explanation)\(reason)\(advice(for: status))",
            exitCode: exitCode(for: status))
    }

    /// Like `security`: the OSStatus truncated to 8 bits (errSecItemNotFound → 44), or 1 when that is 0.
    static func exitCode(for status: KeychainStatus) -> Int32 {
        let low = Int32(UInt8(truncatingIfNeeded: status.code))
        return low == 0 ? 1 : low
    }

    private static func advice(for status: KeychainStatus) -> String {
        switch status {
        case .duplicateItem: " Use -U to update the existing item."
        case .interactionNotAllowed: " Run the command on a terminal to be asked for the keychain passcode."
        case .missingEntitlement: " Check COFFER_ACCESS_GROUPS."
        default: ""
        }
    }

    /// The secret for an add command: `-w VALUE`, or a final `-w` (standard input to its end when it is
    /// not a terminal, one trailing line ending dropped, at most `SizeLimits.valueData`; else a prompt
    /// without echo, asked twice), or none.
    static func password(option: String?, fromInput: Bool) throws -> Data? {
        if let option { return Data(option.utf8) }
        guard fromInput else { return nil }
        let secret = try CLIFailure.reporting {
            isatty(STDIN_FILENO) == 1
                ? try PasscodeInput().new("Password")
                : try SecretInput.readToEnd(from: STDIN_FILENO, limit: SizeLimits.valueData, what: "password")
        }
        return secret.withUnsafeBytes { Data($0) }
    }
}
