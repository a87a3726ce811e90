import ArgumentParser
import Foundation
import KeychainModel
import Security

/// `import`: adds the certificates of a file (DER, or PEM with one or more `CERTIFICATE` blocks) as certificate
/// items, as `SecItemAdd` with `kSecValueRef` does; the label is the subject summary unless `-l` gives one.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import the certificates of a PEM or DER file as certificate items.",
        discussion: "Each certificate is printed as it is added. PKCS#12 (.p12, .pfx) is not supported yet.")

    @Argument(help: "A DER certificate, or PEM with one or more CERTIFICATE blocks.")
    var file: String
    @Option(name: .customShort("l"), help: "The label of every certificate (default: its subject summary).")
    var label: String?

    func run() throws {
        let command = Self.configuration.commandName!
        let certificates = try CertificateFile.read(file, command: command)
        let client = try ItemCommandSupport.client(command: command)
        for certificate in certificates {
            var attributes: [String: Any] = [kSecClass as String: kSecClassCertificate, kSecValueRef as String: certificate]
            if let label { attributes[kSecAttrLabel as String] = label }
            let status = try KeyCalls.using(client) { SecItemAdd(attributes as CFDictionary, nil) }
            guard status == errSecSuccess else { throw CertificateCalls.failure(command, status) }
            let summary = SecCertificateCopySubjectSummary(certificate).map { String($0) } ?? ""
            print("imported certificate \"\(summary)\"")
        }
    }
}
