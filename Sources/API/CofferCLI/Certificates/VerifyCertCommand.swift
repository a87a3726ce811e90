import ArgumentParser
import Foundation
import KeychainModel
import Security

/// `verify-cert`: like macOS `security verify-cert`, evaluates a `SecTrust` for a certificate file (the leaf first,
/// then intermediates) with the SSL policy for `-s HOSTNAME` or else the basic X.509 policy, trusting the `-r` files'
/// certificates only when given, else the system's roots, at `--date` or now.
struct VerifyCertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-cert", abstract: "Verify a certificate chain against a policy and trusted roots.",
        discussion: "Exits 0 after `...certificate verification successful.`, or 1 with the error's code by name.")

    @Option(name: .customShort("c"), help: ArgumentHelp("The certificate: PEM with the leaf first then intermediates, or DER.", valueName: "certificate-file"))
    var certificateFile: String
    @Option(name: .customShort("r"), help: ArgumentHelp("A root certificate file to trust (repeatable; then only these are trusted).", valueName: "root-file"))
    var rootFiles: [String] = []
    @Option(name: .customShort("s"), help: ArgumentHelp("Verify for an SSL server with this host name.", valueName: "hostname"))
    var hostname: String?
    @Option(name: .customLong("date"), help: "Verify at this ISO 8601 date (2030-01-01 or 2030-01-01T00:00:00Z).")
    var date: String?

    func validate() throws {
        if let date, Self.parse(date) == nil { throw ValidationError("--date takes an ISO 8601 date: \(date)") }
    }

    func run() throws {
        let command = Self.configuration.commandName!
        let certificates = try CertificateFile.read(certificateFile, command: command)
        let anchors = try rootFiles.flatMap { try CertificateFile.read($0, command: command) }
        let policy = hostname.map { SecPolicyCreateSSL(true, $0 as CFString) } ?? SecPolicyCreateBasicX509()
        var created: SecTrust?
        let status = SecTrustCreateWithCertificates(certificates as CFArray, policy, &created)
        guard status == errSecSuccess, let trust = created else { throw CertificateCalls.failure(command, status) }
        if !anchors.isEmpty { _ = SecTrustSetAnchorCertificates(trust, anchors as CFArray) }
        if let date, let when = Self.parse(date) { _ = SecTrustSetVerifyDate(trust, when as CFDate) }
        var error: CFError?
        guard SecTrustEvaluateWithError(trust, &error) else {
            guard let error else { throw CLIFailure("\(command): Cert Verify Result: not trusted") }
            let status = KeychainStatus(code: Int32(truncatingIfNeeded: CFErrorGetCode(error)))
            let named = "\(status.name) (\(status.code))"
            var description = String(CFErrorCopyDescription(error))
            if description.hasSuffix(": \(named)") { description.removeLast(named.count + 2) }
            throw CLIFailure("\(command): Cert Verify Result: \(named): \(description)")
        }
        print("...certificate verification successful.")
    }

    /// An ISO 8601 date and time, or a date alone (midnight UTC).
    static func parse(_ text: String) -> Date? {
        let full = ISO8601DateFormatter()
        if let date = full.date(from: text) { return date }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        return day.date(from: text)
    }
}
