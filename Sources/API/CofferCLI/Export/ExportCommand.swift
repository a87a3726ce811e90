import ArgumentParser
import Foundation
import KeychainModel
import Security

/// `export`: writes certificate items as PEM or DER (chosen as `find-certificate` chooses them: `-c NAME`, the first
/// match or every one with `-a`), or with `--private-key` the private key of an identity or of a key selection as
/// PKCS#8 PEM, only when its item lets it leave the keychain; to standard output or a new 0600 file (`-o FILE`).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export certificates (PEM or DER), or a private key that may leave the keychain (PKCS#8 PEM).",
        discussion: """
            -o FILE creates the file with mode 0600 and never replaces an existing file (or follows a symbolic link) \
            unless --force is given. A private key is exported only when its item is extractable \
            (kSecAttrIsExtractable); a key made inside the keychain (create-key --enclave) never is.
            """)

    @Option(
        name: .customShort("c"),
        help: ArgumentHelp(
            "Certificates (or with --private-key, the identity) whose subject summary or common name contains NAME (any case).",
            valueName: "name"))
    var name: String?
    @Flag(name: .customShort("a"), help: "Export every matching certificate (default: the first).")
    var all = false
    @Option(name: [.customShort("f"), .customLong("format")], help: "pem (default) or der, for certificates.")
    var format: CertificateFormat?
    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp("Write to this new file (mode 0600) instead of standard output.", valueName: "file"))
    var output: String?
    @Flag(name: .customLong("force"), help: "Replace the -o file if it exists.")
    var force = false
    @Flag(
        name: .customLong("private-key"),
        help: "Export the private key of the identity -c names, or of the key --tag, -l or --application-label names, as PKCS#8 PEM.")
    var privateKey = false
    @OptionGroup var selection: KeySelection

    func validate() throws {
        if privateKey, format == .der { throw ValidationError("--private-key writes PKCS#8 PEM only; leave out --format der") }
        if privateKey, all { throw ValidationError("--private-key exports one key; leave out -a") }
        if !privateKey, !selection.isEmpty {
            throw ValidationError("--tag, -l and --application-label name a private key; add --private-key to export it")
        }
        if privateKey, !selection.isEmpty, name != nil {
            throw ValidationError("name the private key either by its identity's certificate (-c) or by --tag, -l or --application-label, not both")
        }
        if force, output == nil { throw ValidationError("--force replaces the file -o names; give -o FILE") }
    }

    func run() throws {
        let command = Self.configuration.commandName!
        let destination = ExportDestination(path: output, force: force)
        let client = try ItemCommandSupport.client(command: command)
        if privateKey {
            let chosen = try PrivateKeyExport.choose(selection: selection, certificateName: name, client: client, command: command)
            try PrivateKeyExport.requireExportable(chosen, command: command)
            try PrivateKeyExport.export(chosen, to: destination, client: client, command: command)
            return
        }
        var matches = try CertificateItems.all(client: client, command: command)
        if let name { matches = matches.filter { CertificateItems.names(of: $0.certificate, contain: name) } }
        guard let first = matches.first else { throw ItemCommandSupport.failure(command, KeychainFailure(.itemNotFound)) }
        let chosen = all ? matches : [first]
        let bytes: Data
        switch format ?? .pem {
        case .pem:
            bytes = Data(chosen.map { CertificateFile.pem($0.der) }.joined().utf8)
        case .der:
            guard chosen.count == 1 else {
                throw CLIFailure(
                    "\(command): --format der holds one certificate and \(chosen.count) match; choose one with -c NAME, or write PEM")
            }
            bytes = first.der
        }
        try bytes.withUnsafeBytes { try destination.write($0, command: command) }
    }
}

/// `export --format`: how certificates are written.
enum CertificateFormat: String, ExpressibleByArgument {
    case pem, der
}
