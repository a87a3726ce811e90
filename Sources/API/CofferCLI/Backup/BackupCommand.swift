import ArgumentParser
import Coffer
import Foundation
import KeychainClient
import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// `coffer backup -o FILE [--recovery-key | --to RECIPIENT] [--file PATH]…`.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write an encrypted backup of every item that may leave this device.",
        discussion: """
            The backup holds generic and internet passwords, certificates and extractable keys with all their \
            attributes; ThisDeviceOnly and WhenPasscodeSetThisDeviceOnly items, token and non-extractable keys \
            and items bound to this device's fingerprints stay behind. It is encrypted with a backup password \
            (asked twice on a terminal; read from standard input otherwise, after the keychain passcode when \
            one is set), or with --recovery-key, a random key printed once on standard output: write it down, \
            or with --to, for another keychain: its recipient key (the text `coffer backup-recipient` prints \
            there, or a file holding it), so only that keychain opens the backup, with no password to pass on, \
            and a file recorded now stays closed to a future quantum computer (X-Wing: ML-KEM-768 with X25519). \
            Each --file adds a protected file (or every protected file under a folder, recursively): its content, \
            protection class and path, read through the keychain now (a complete file needs it unlocked). A path \
            that is missing or not a protected file is refused before anything is written. A backup with files \
            is format version 2, which older versions of coffer refuse.
            """)

    @Option(name: [.customShort("o"), .customLong("output")], help: "The backup file to write (mode 0600).")
    var output: String
    @Flag(name: .customLong("recovery-key"), help: "Protect the backup with a printed recovery key instead of a password.")
    var recoveryKey = false
    @Option(name: .customLong("to"), help: "Make the backup for another keychain: its recipient key (`coffer backup-recipient` there), or a file holding it.")
    var recipient: String?
    @Option(name: .customLong("file"), help: "A protected file (or a folder of them) to include; repeatable.")
    var files: [String] = []
    @Flag(name: .customLong("force"), help: "Replace the backup file if it exists.")
    var force = false
    @Flag(name: .customLong("allow-weak-passphrase"), help: "Accept a backup password shorter than \(BackupPassword.minimumLength) characters.")
    var allowWeakPassphrase = false

    func validate() throws {
        if recoveryKey && allowWeakPassphrase { throw ValidationError("--allow-weak-passphrase applies to a backup password, not --recovery-key") }
        if recipient != nil && (recoveryKey || allowWeakPassphrase) {
            throw ValidationError("--to makes the backup for another keychain's key: it takes neither --recovery-key nor a password option")
        }
    }

    func run() throws {
        var status = stat()
        if !force, lstat(output, &status) == 0 {
            throw CLIFailure("backup: \(output) already exists; nothing was written (use --force to replace it)")
        }
        let keychain = Keychain(client: CLIKeychain.shared)
        let passcode = try CLIFailure.reporting { () throws -> SecretBytes? in
            let status = try CLIKeychain.shared.blocking.lockStatus()
            return status.passcodeSet ? try PasscodeInput().existing("Keychain passcode") : nil
        }
        let protection: BackupSecret
        var printedKey: SecretBytes?
        if let recipient {
            protection = .recipient(try Self.parseRecipient(recipient))
        } else if recoveryKey {
            let key = RecoveryKey.generate()
            protection = .recoveryKey(key)
            printedKey = key.formatted()
        } else {
            let password = try CLIFailure.reporting { try PasscodeInput().new("Backup password") }
            try BackupPassword.check(password, allowWeak: allowWeakPassphrase)
            protection = .password(password)
        }
        let progress = BackupStageDisplay()
        let url = URL(fileURLWithPath: output)
        let fileURLs = files.map { URL(fileURLWithPath: $0) }
        let summary = try BackupCalls.blocking { () async throws(BackupError) in
            try await keychain.backup(to: url, protection: protection, keychainPasscode: passcode, files: fileURLs, progress: progress.show)
        }
        progress.finish()
        if let printedKey {
            FileHandle.standardError.write(Data("Recovery key (write it down; the backup cannot be restored without it):\n".utf8))
            printedKey.withUnsafeBytes { bytes in
                _ = Glibc.write(STDOUT_FILENO, bytes.baseAddress, bytes.count)
                _ = Glibc.write(STDOUT_FILENO, "\n", 1)
            }
        }
        let left = summary.leftBehind
        var line = "backed up \(summary.itemCount) items"
        if !files.isEmpty { line += " and \(summary.files.count) protected files (\(summary.fileContentSize) bytes of content)" }
        line += " to \(output) (\(summary.fileSize) bytes)"
        if left.total > 0 {
            line +=
                "; left on this device: \(left.thisDeviceOnly) this-device-only, \(left.passcodeSetOnly) passcode-set-only, "
                + "\(left.nonExtractableKeys) non-extractable keys, \(left.deviceBound) bound to this device"
        }
        for path in summary.files { line += "\nfile: \(path)" }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The recipient `argument` names: its text form, or a file holding it.
    static func parseRecipient(_ argument: String) throws -> BackupRecipient {
        if let recipient = BackupRecipient(text: argument) { return recipient }
        guard !argument.hasPrefix(BackupRecipient.textPrefix) else {
            throw CLIFailure("backup: --to: the recipient key is damaged (cut short, or mistyped)")
        }
        guard let contents = try? String(contentsOfFile: argument, encoding: .utf8) else {
            throw CLIFailure("backup: --to: \(argument) is neither a recipient key (\(BackupRecipient.textPrefix)…) nor a readable file")
        }
        guard let recipient = BackupRecipient(text: contents) else {
            throw CLIFailure("backup: --to: \(argument) does not hold a recipient key (\(BackupRecipient.textPrefix)…)")
        }
        return recipient
    }
}

/// `coffer backup-recipient`: this keychain's recipient key, for backups made for it elsewhere.
struct BackupRecipientCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup-recipient",
        abstract: "Print this keychain's recipient key, so a backup can be made for it elsewhere (coffer backup --to).",
        discussion: """
            The key is made inside this keychain the first time (X-Wing: ML-KEM-768 with X25519; kept after first \
            unlock, on this device only) and never leaves it; what is printed is its public half, safe to send. \
            A backup made for it is restored here with `coffer restore FILE`, with no password.
            """)

    func run() throws {
        let keychain = Keychain(client: CLIKeychain.shared)
        let recipient = try BackupCalls.blocking { () async throws(BackupError) in try await keychain.backupRecipient() }
        print(recipient.text)
    }
}

/// `coffer restore FILE [--policy keep|replace|both] [--files-to DIR]`.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into this keychain, all items or none.",
        discussion: """
            The whole file is checked (password or recovery key, authentication, length, every item) before \
            anything is written; then every item is written in one transaction. A backup made for this keychain \
            (coffer backup --to) is opened with its recipient key, inside the keychain, with no password. An item whose primary key is \
            taken by a different item follows --policy: keep (the keychain's item wins, the default), replace \
            (the backup's wins), both (a password is restored under its account followed by " (restored)"; a \
            certificate or key cannot be kept twice and is reported). Exit status: 2 for a wrong password or \
            recovery key, 3 for a damaged or modified file. \
            The backup's protected files are written after the items, each as a protected file of this keychain \
            with its original protection class, at its original path (or, with --files-to DIR, at that path under \
            DIR), atomically; an existing file follows --policy (both: the backup's is written beside it with \
            " (restored)" in its name).
            """)

    @Argument(help: "The backup file.")
    var path: String
    @Option(name: .customLong("policy"), help: "What to do on a conflict: keep, replace or both.")
    var policy: RestorePolicyArgument = .init(.keep)
    @Option(name: .customLong("files-to"), help: "Restore the backup's protected files under this folder, at their paths inside it.")
    var filesTo: String?

    func run() throws {
        let keychain = Keychain(client: CLIKeychain.shared)
        let url = URL(fileURLWithPath: path)
        let kind = try BackupCalls.reporting { () throws(BackupError) in try Keychain.backupProtection(of: url) }
        let protection: BackupSecret
        switch kind {
        case .password:
            protection = .password(try CLIFailure.reporting { try PasscodeInput().existing("Backup password") })
        case .recoveryKey:
            let text = try CLIFailure.reporting { try PasscodeInput().existing("Recovery key") }
            do {
                protection = .recoveryKey(try RecoveryKey.parse(text))
            } catch {
                throw CLIFailure("restore: \(error)", exitCode: 2)
            }
        case .recipient:
            protection = try BackupCalls.blocking { () async throws(BackupError) in try await keychain.recipientSecret(forBackupAt: url) }
        }
        let progress = BackupStageDisplay()
        let chosen = policy.policy
        let filesFolder = filesTo.map { URL(fileURLWithPath: $0) }
        let report = try BackupCalls.blocking { () async throws(BackupError) in
            try await keychain.restore(from: url, protection: protection, policy: chosen, filesTo: filesFolder, progress: progress.show)
        }
        progress.finish()
        print(
            "restored \(report.added) items; \(report.identical) already present; \(report.conflicts.count) conflicts "
                + "(\(report.count(.keptExisting)) kept the keychain's, \(report.count(.replaced)) replaced, "
                + "\(report.count(.keptBoth)) kept both, \(report.count(.notRestorable)) could not be kept both)")
        for conflict in report.conflicts {
            print(
                "conflict: \(conflict.itemClass.rawValue) \(ControlCharacterEscaping.escaped(conflict.summary)): \(RestorePolicyArgument.describe(conflict.outcome))"
            )
        }
        guard !report.files.isEmpty else { return }
        print(
            "restored \(report.files.count - report.fileCount(.keptExisting)) of \(report.files.count) files; "
                + "\(report.files.count - report.fileCount(.restored)) conflicts "
                + "(\(report.fileCount(.keptExisting)) kept the existing file, \(report.fileCount(.replaced)) replaced, "
                + "\(report.fileCount(.keptBoth)) kept both)")
        for file in report.files {
            print("file: \(ControlCharacterEscaping.escaped(file.path)): \(RestorePolicyArgument.describe(file))")
        }
    }
}
