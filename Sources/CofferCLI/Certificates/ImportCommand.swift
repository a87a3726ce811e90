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
        commandName: "import", abstract: "Import the certificates of a PEM or DER file, or the identities of a PKCS#12 file.",
        discussion: """
            Each certificate or identity is printed as it is added. A PKCS#12 file's passphrase is read from the \
            terminal without echo, or as one line of standard input when that is not a terminal; never from an argument.
            """)

    @Argument(help: "A DER certificate, PEM with one or more CERTIFICATE blocks, or a PKCS#12 file (.p12, .pfx).")
    var file: String
    @Option(name: .customShort("l"), help: ArgumentHelp("The label of every certificate, or of each identity's certificate and key (default: the subject summary).", valueName: "label"))
    var label: String?

    func run() throws {
        let command = Self.configuration.commandName!
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
}
