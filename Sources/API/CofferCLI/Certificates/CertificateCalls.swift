import Foundation
import KeychainModel
import Security

/// What the certificate commands share with the item commands' reporting.
enum CertificateCalls {
    /// A failing `Security` status as `security` reports it: the status by name and number and what it means,
    /// with `security`'s exit code (the status truncated to 8 bits: errSecDuplicateItem → 45).
    static func failure(_ command: String, _ status: OSStatus) -> CLIFailure {
        let status = KeychainStatus(code: status)
        return CLIFailure(
            "\(command): \(status.name) (\(status.code)): \(status.explanation)", exitCode: ItemCommandSupport.exitCode(for: status))
    }
}
