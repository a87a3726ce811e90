import ArgumentParser
import BackupFormat
import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations

/// `coffer keystore status | bind-tpm | unbind-tpm | recovery-key | recover`: what protects the device key.
struct KeystoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keystore",
        abstract: "Show or change what protects the keychain's device key: a file, or the machine's TPM.",
        discussion: """
            With a TPM the device key is sealed by it and the passcode is tangled with a key inside it: a copy of the \
            keychain's folder is useless on any other machine, and passcode guesses must run on this one. The \
            recovery key opens the keychain when the TPM is gone (cleared, replaced, the disk moved). COFFER_TPM \
            names the TPM (a tpm2-tss TCTI such as device:/dev/tpmrm0 or swtpm:host=127.0.0.1,port=2321) or 'none'.
            """,
        subcommands: [Status.self, BindTPM.self, UnbindTPM.self, RecoveryKeyCommand.self, Recover.self])

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show what protects the device key.")

        @Flag(name: .customLong("json"), help: "Print one JSON object instead (for scripts).")
        var json = false

        func run() throws {
            let status = try CLIFailure.reporting { try CLIKeychain.shared.blocking.lockStatus() }
            let lines = KeystoreStatusText(status.deviceKey)
            if json {
                try JSONOutput.print(lines.json)
            } else {
                print(lines.text)
            }
        }
    }

    struct BindTPM: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "bind-tpm",
            abstract: "Seal the device key by the TPM and tangle the passcode with it; prints the recovery key.",
            discussion: """
                Items are not re-encrypted. Needs the passcode when one is set.

                --pcrs also binds the device key to the present values of those PCRs (SHA-256 bank), so the keychain \
                opens only while the machine boots the same way: a firmware, bootloader, kernel or Secure Boot change \
                then needs the recovery key (coffer keystore recover, which seals it to the new values). On a keychain \
                already bound, --pcrs seals its device key again to the PCRs given ('none': the chip alone).
                """)

        @Option(
            name: .customLong("pcrs"),
            help: ArgumentHelp(
                "Bind to these PCRs' present values too: numbers 0–23 separated by commas, or 'none'.", valueName: "LIST"))
        var pcrs: PCRListArgument?

        func run() throws {
            let key = try CLIFailure.reporting {
                let client = CLIKeychain.shared
                let passcode = try KeystorePasscode.ifSet(client, prompt: "Passcode")
                return try client.blocking.changeDeviceKeyBinding(.bindTPM(passcode: passcode, pcrs: pcrs?.pcrs))
            }
            let boundTo = pcrs.map { $0.pcrs.isEmpty ? "" : " and PCRs sha256:" + $0.pcrs.map(String.init).joined(separator: ",") } ?? ""
            guard let key else {
                print("device key sealed again by the TPM\(boundTo.isEmpty ? ", to the chip alone" : boundTo)")
                return
            }
            print("device key sealed by the TPM\(boundTo)")
            RecoveryKeyOutput.print(key)
        }
    }

    struct UnbindTPM: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unbind-tpm",
            abstract: "Move the device key back into a file and untangle the passcode from the TPM.",
            discussion: """
                Items are not re-encrypted. Needs the passcode when one is set. The recovery key stops being needed. \
                Secure Enclave P-256 keys made while the keychain was bound live inside the TPM and stop working.
                """)

        func run() throws {
            try CLIFailure.reporting {
                let client = CLIKeychain.shared
                let passcode = try KeystorePasscode.ifSet(client, prompt: "Passcode")
                _ = try client.blocking.changeDeviceKeyBinding(.unbindTPM(passcode: passcode))
            }
            print("device key moved into a file")
        }
    }

    struct RecoveryKeyCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recovery-key",
            abstract: "Show the recovery key made with the keychain (once), or make a new one with --new.",
            discussion: "A keychain made with a TPM keeps its recovery key sealed until it is shown here; it is then forgotten.")

        @Flag(name: .customLong("new"), help: "Make a new recovery key; the old one stops working.")
        var renew = false

        func run() throws {
            let key = try CLIFailure.reporting {
                let client = CLIKeychain.shared
                let passcode = try KeystorePasscode.ifSet(client, prompt: "Passcode")
                return try client.blocking.changeDeviceKeyBinding(.recoveryKey(renew: renew, passcode: passcode))
            }
            if let key { RecoveryKeyOutput.print(key) }
        }
    }

    struct Recover: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recover",
            abstract: "Open a keychain its TPM no longer opens with the recovery key and passcode, and bind it again.",
            discussion: """
                After a TPM clear, a new motherboard, or a disk moved to another machine. The keychain is sealed again by \
                the TPM there is (COFFER_TPM), or its device key goes into a file when there is none. When standard input \
                is not a terminal, the recovery key is read from it, then the passcode.
                """)

        @Flag(name: .customLong("no-passcode"), help: "The keychain has no passcode: ask only for the recovery key.")
        var noPasscode = false

        func run() throws {
            try CLIFailure.reporting {
                let input = PasscodeInput()
                let text = try input.existing("Recovery key")
                do {
                    _ = try RecoveryKey.parse(text)
                } catch {
                    throw CLIFailure("\(error)")
                }
                let passcode = noPasscode ? nil : try input.existing("Passcode")
                _ = try CLIKeychain.shared.blocking.changeDeviceKeyBinding(.recover(recoveryKey: text, passcode: passcode))
            }
            print("keychain recovered and bound again")
        }
    }
}

/// The passcode, asked for only when one is set.
enum KeystorePasscode {
    static func ifSet(_ client: any KeychainClient, prompt: String) throws -> SecretBytes? {
        guard try client.blocking.lockStatus().passcodeSet else { return nil }
        return try PasscodeInput().existing(prompt)
    }
}

/// A recovery key on standard output, with what to do with it on standard error: the one place the key is meant to be
/// shown, on the person's own request. Its bytes go to the descriptor with write(2), never through a String, a log
/// or an error.
enum RecoveryKeyOutput {
    static func print(_ key: SecretBytes) {
        FileHandle.standardError.write(
            Data("Recovery key (write it down and keep it away from this machine: with the passcode it opens the keychain if the TPM is lost):\n".utf8))
        key.withUnsafeBytes { bytes in
            _ = Glibc.write(STDOUT_FILENO, bytes.baseAddress, bytes.count)
            _ = Glibc.write(STDOUT_FILENO, "\n", 1)
        }
    }
}
