import ArgumentParser
import Foundation
import KeychainModel
import Security

/// `import`: adds the certificates of a file (DER, or PEM with one or more `CERTIFICATE` blocks) as certificate
/// items, as `SecItemAdd` with `kSecValueRef` does; the label is the subject summary unless `-l` gives one. A PKCS#12
/// file (`.p12`, `.pfx`, or a `PFX` by its content) is read with `SecPKCS12Import` after asking for its passphrase,
/// and each identity in it is added with the rest of its chain (``PKCS12FileImport``).
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import the certificates of a PEM or DER file, the identities of a PKCS#12 file, or another password manager's logins.",
        discussion: """
            Each certificate or identity is printed as it is added. A PKCS#12 file's passphrase is read from the \
            terminal without echo, or as one line of standard input when that is not a terminal; never from an argument.

            With --from, FILE is another password manager's export and each login becomes a password item: an \
            internet password for a login with a URL, else a generic password named by the entry's title. pass: \
            FILE is the store's folder (default $PASSWORD_STORE_DIR or ~/.password-store), decrypted with your gpg. \
            keepassxc: its CSV export. bitwarden: its unencrypted JSON export. cxf: a Credential Exchange Format \
            file (JSON). The items are added 500 to a transaction; an item already in the keychain is counted and \
            left as it is, so importing again adds nothing. A report lists what was left out (cards, notes, \
            passkeys, TOTP seeds) and why. The exit status is 0 when every login is in the keychain. Delete the \
            export once imported: it holds every password in the clear.
            """)

    @Argument(
        help: ArgumentHelp(
            "A DER certificate, PEM with one or more CERTIFICATE blocks, a PKCS#12 file (.p12, .pfx), or with --from the export.",
            valueName: "file"))
    var file: String?
    @Option(
        name: .customShort("l"),
        help: ArgumentHelp("The label of every certificate, or of each identity's certificate and key (default: the subject summary).", valueName: "label"))
    var label: String?
    @Option(
        name: .customLong("from"),
        help: ArgumentHelp("Import the logins of another password manager's export: pass, keepassxc, bitwarden or cxf.", valueName: "manager"))
    var format: ImportFormat?

    func validate() throws {
        if format != .pass, file == nil {
            throw ValidationError(format == nil ? "Missing expected argument '<file>'." : "--from \(format!.rawValue) needs the export's file.")
        }
        if format != nil, label != nil { throw ValidationError("-l applies to certificates; an imported login is labelled with its entry's title.") }
    }

    func run() throws {
        let command = Self.configuration.commandName!
        if let format {
            try importLogins(format)
            return
        }
        guard let file else { return }
        let data = try CertificateFile.contents(file, command: command)
        if CertificateFile.isPKCS12(data, named: file) {
            try PKCS12FileImport(path: file, data: data, label: label).run(command: command)
            return
        }
        let certificates: [SecCertificate]
        do {
            certificates = try CertificateFile.certificates(in: data, named: file)
        } catch {
            throw CLIFailure("\(command): \(error.message(file))")
        }
        let client = try ItemCommandSupport.client(command: command)
        for certificate in certificates {
            var attributes: [String: Any] = [kSecClass as String: kSecClassCertificate, kSecValueRef as String: certificate]
            if let label { attributes[kSecAttrLabel as String] = label }
            let status = try KeyCalls.using(client) { SecItemAdd(attributes as CFDictionary, nil) }
            guard status == errSecSuccess else { throw CertificateCalls.failure(command, status) }
            let summary = SecCertificateCopySubjectSummary(certificate).map { String($0) } ?? ""
            print("imported certificate \"\(ControlCharacterEscaping.escaped(summary))\"")
        }
    }

    /// `--from`: reads the export, then adds its logins.
    private func importLogins(_ format: ImportFormat) throws {
        let environment = ProcessInfo.processInfo.environment
        let path = file ?? (format == .pass ? PasswordStore.defaultFolder(environment: environment) : "")
        let source: ImportSource
        switch format {
        case .pass:
            let progress = ImportProgress(total: 0, verb: "decrypted")
            source = try PasswordStore.read(folder: path, environment: environment) { done, total in
                if done == 1 { progress.restart(total: total) }
                progress.update(done)
            }
            progress.finish()
        case .keepassxc, .bitwarden, .cxf:
            let data = try CertificateFile.contents(path, command: "import")
            switch format {
            case .keepassxc: source = try KeePassXCExport.read(data, name: path)
            case .bitwarden: source = try BitwardenExport.read(data, name: path)
            default: source = try CredentialExchangeExport.read(data, name: path)
            }
        }
        let run = PasswordImport(source: source, origin: "\(format.displayName) (\(path))", client: try ItemCommandSupport.client(command: "import"))
        let report = try run.run()
        FileHandle.standardOutput.write(Data(run.summary(report).utf8))
        if !report.failed.isEmpty || !source.unreadable.isEmpty { throw ExitCode(1) }
    }
}
