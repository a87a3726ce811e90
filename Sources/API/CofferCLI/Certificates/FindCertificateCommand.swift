import ArgumentParser
import Crypto
import Foundation
import KeychainModel
import Query
import Security

/// `find-certificate`: like macOS `security find-certificate`, prints the first certificate item that matches (every
/// one with `-a`): its attributes as `find-key` prints them, or its PEM with `-p`, after its SHA-256 and SHA-1
/// hashes with `-Z`.
///
/// The keychain has no `kSecMatchSubjectContains` or `kSecMatchEmailAddressIfPresent` match, so `-c` and `-e` are
/// applied here, over every certificate item.
struct FindCertificateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-certificate", abstract: "Find certificate items and print their attributes, PEM or hashes.")

    @Option(name: .customShort("c"), help: ArgumentHelp("Match certificates whose subject summary or common name contains NAME (any case).", valueName: "name"))
    var name: String?
    @Option(name: .customShort("e"), help: ArgumentHelp("Match certificates with this email address (any case).", valueName: "email"))
    var email: String?
    @Flag(name: .customShort("a"), help: "Print every match (default: the first).")
    var all = false
    @Flag(name: .customShort("p"), help: "Print each match as PEM instead of its attributes.")
    var pem = false
    @Flag(name: .customShort("Z"), help: "Print each match's SHA-256 and SHA-1 hashes first.")
    var hashes = false
    @Flag(name: .customLong("json"), help: "Print one JSON array of the matches instead: attributes, PEM and hashes (for scripts).")
    var json = false

    func run() throws {
        let command = Self.configuration.commandName!
        let client = try ItemCommandSupport.client(command: command)
        let matches = try CertificateItems.all(client: client, command: command).filter { passesFilters($0.certificate) }
        guard !matches.isEmpty else { throw ItemCommandSupport.failure(command, KeychainFailure(.itemNotFound)) }
        if json {
            try JSONOutput.print(
                (all ? matches : [matches[0]]).map { match in
                    var object = JSONOutput.item(itemClass: ItemClass.certificate.rawValue, attributes: match.attributes)
                    object["pem"] = CertificateFile.pem(match.der)
                    object["sha256"] = Hexadecimal.text(SHA256.hash(data: match.der), uppercase: true)
                    object["sha1"] = Hexadecimal.text(Insecure.SHA1.hash(data: match.der), uppercase: true)
                    return object
                })
            return
        }
        let blocks = (all ? matches : [matches[0]]).map { match in
            var text = hashes ? Self.hashLines(match.der) : ""
            text += pem ? CertificateFile.pem(match.der) : ItemPrinter.describe(itemClass: ItemClass.certificate.rawValue, attributes: match.attributes) + "\n"
            return text
        }
        FileHandle.standardOutput.write(Data(blocks.joined().utf8))
    }

    /// Whether `certificate` passes `-c` and `-e`.
    private func passesFilters(_ certificate: SecCertificate) -> Bool {
        if let name, !CertificateItems.names(of: certificate, contain: name) { return false }
        if let email {
            var addresses: CFArray?
            _ = SecCertificateCopyEmailAddresses(certificate, &addresses)
            let list = (addresses as? [String]) ?? []
            guard list.contains(where: { $0.caseInsensitiveCompare(email) == .orderedSame }) else { return false }
        }
        return true
    }

    /// `security`'s `-Z` lines: the SHA-256 and SHA-1 hashes of the DER, in uppercase hexadecimal.
    static func hashLines(_ der: Data) -> String {
        let (sha256, sha1) = (SHA256.hash(data: der), Insecure.SHA1.hash(data: der))
        return "SHA-256 hash: \(Hexadecimal.text(sha256, uppercase: true))\nSHA-1 hash: \(Hexadecimal.text(sha1, uppercase: true))\n"
    }
}
