import ArgumentParser
import Crypto
import Foundation
import KeychainModel
import Security

/// `find-identity`: like macOS `security find-identity`, lists the identities (a certificate and the private key of
/// its public key) for each policy, each by its certificate's SHA-1 and subject summary, the matching ones with why
/// they are not valid, then the valid ones; with `-v`, the valid ones only.
///
/// Valid means trusted for the policy by `SecTrust` now, against the system's anchors (or the `-r` files' only),
/// with the keychain's other certificates as candidate intermediates.
struct FindIdentityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-identity", abstract: "List identities (certificates with their private keys) and whether they are valid.",
        discussion: """
            Each identity is printed as `security find-identity` prints it: its number, the SHA-1 of its certificate \
            in upper-case hexadecimal and the certificate's subject summary, then, in the list of matches, the \
            CSSM result that makes it invalid. The command exits 0 whether or not identities are found.
            """)

    @Option(name: .customShort("p"), help: ArgumentHelp("A policy to evaluate: basic (default), ssl-client or ssl-server (repeatable).", valueName: "policy"))
    var policies: [IdentityPolicy] = []
    @Option(
        name: .customShort("s"),
        help: ArgumentHelp("Only identities whose certificate's subject summary, common name or label contains STRING (any case).", valueName: "string"))
    var name: String?
    @Flag(name: .customShort("v"), help: "Show valid identities only.")
    var validOnly = false
    @Option(
        name: .customShort("r"),
        help: ArgumentHelp("A root certificate file to trust instead of the system's roots (repeatable; a Coffer addition).", valueName: "file"))
    var rootFiles: [String] = []

    func run() throws {
        let command = Self.configuration.commandName!
        let anchors = try rootFiles.flatMap { try CertificateFile.read($0, command: command) }
        let client = try ItemCommandSupport.client(command: command)
        var identities = try IdentityItems.all(client: client, command: command)
        if let name { identities = identities.filter { IdentityItems.matches($0, name) } }
        let trust = IdentityTrust(
            intermediates: identities.isEmpty ? [] : try CertificateItems.all(client: client, command: command).map(\.certificate),
            anchors: anchors)
        var output = name.map { "Looking for identities matching \"\($0)\"\n" } ?? ""
        let chosen = policies.isEmpty ? [IdentityPolicy.basic] : IdentityPolicy.allCases.filter(policies.contains)
        for policy in chosen {
            let secPolicy = policy.make()
            let evaluated = identities.map { (identity: $0, failure: trust.failure(of: $0.certificate, for: secPolicy)) }
            if !validOnly {
                output += "\nPolicy: \(policy.title)\n  Matching identities\n"
                for (index, found) in evaluated.enumerated() {
                    output += Self.line(index + 1, found.identity, failure: found.failure)
                }
                output += "     \(evaluated.count) identities found\n\n  Valid identities only\n"
            }
            let valid = evaluated.filter { $0.failure == nil }
            for (index, found) in valid.enumerated() {
                output += Self.line(index + 1, found.identity, failure: nil)
            }
            output += "     \(valid.count) valid identities found\n"
        }
        FileHandle.standardOutput.write(Data(output.utf8))
    }

    /// One identity as `security` prints it: `%3d) `, the certificate's SHA-1 in upper-case hexadecimal, its subject
    /// summary in quotes (`<unknown>` without one), and ` (CSSM result)` when it is not valid.
    static func line(_ number: Int, _ identity: IdentityItems.Found, failure: String?) -> String {
        let hash = Hexadecimal.text(Insecure.SHA1.hash(data: identity.der), uppercase: true)
        let summary = SecCertificateCopySubjectSummary(identity.certificate).map { String($0) } ?? ""
        let ordinal = String(number)
        let padded = String(repeating: " ", count: max(0, 3 - ordinal.count)) + ordinal
        return "\(padded)) \(hash) \"\(summary.isEmpty ? "<unknown>" : summary)\"" + (failure.map { " (\($0))" } ?? "") + "\n"
    }
}
