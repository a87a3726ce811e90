import ArgumentParser
import Coffer
import Foundation
import KeyCrypto
import Security

/// `export-public-key`: writes a key's public key to standard output.
struct ExportPublicKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-public-key",
        abstract: "Write a key's public key to standard output (PEM, DER or an OpenSSH authorized_keys line).",
        discussion: "PEM and DER are X.509 SubjectPublicKeyInfo, as `openssl pkey -pubin` reads them. Only public keys are ever exported.")

    @OptionGroup var selection: KeySelection
    @Option(name: [.customShort("f"), .customLong("format")], help: "pem (default), der or openssh.")
    var format: PublicKeyFormat = .pem
    @Option(name: .customLong("comment"), help: "The comment of an OpenSSH line (default: the key's label or tag).")
    var comment: String?

    func run() throws {
        let command = Self.configuration.commandName!
        try selection.requireOne(command)
        let client = try ItemCommandSupport.client(command: command)
        let publicKey: AsymmetricKey
        switch try KeyCalls.using(client, { try SelectedKey.find(selection, client: client, command: command) }) {
        case .secKey(let key): publicKey = try KeyCalls.using(client) { try KeyCalls.publicKey(of: key, command: command) }
        case .postQuantum(let key):
            try export(key, command: command)
            return
        }
        switch format {
        case .pem: FileHandle.standardOutput.write(Data(publicKey.subjectPublicKeyInfoPEM.utf8))
        case .der: FileHandle.standardOutput.write(publicKey.subjectPublicKeyInfo)
        case .openssh:
            let line = publicKey.openSSHPublicKey(comment: comment ?? selection.label ?? selection.tag)
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }
}

extension ExportPublicKeyCommand {
    /// Writes a post-quantum key's SubjectPublicKeyInfo; OpenSSH has no such key types.
    private func export(_ key: PostQuantumKey, command: String) throws {
        let info = PostQuantumKeyCalls.subjectPublicKeyInfo(of: key)
        switch format {
        case .der: FileHandle.standardOutput.write(info)
        case .pem:
            let lines = info.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            FileHandle.standardOutput.write(Data("-----BEGIN PUBLIC KEY-----\n\(lines)\n-----END PUBLIC KEY-----\n".utf8))
        case .openssh:
            throw CLIFailure("\(command): OpenSSH has no \(key.kind.rawValue) keys: use -f pem or -f der")
        }
    }
}

/// `-f`: the public key formats `export-public-key` writes.
enum PublicKeyFormat: String, ExpressibleByArgument {
    case pem, der, openssh
}
