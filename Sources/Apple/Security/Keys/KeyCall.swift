import Foundation
import KeychainModel

/// Runs one `SecKey…` call: its failure reaches the caller's `CFError` out-parameter (domain
/// `NSOSStatusErrorDomain`, Apple's code), and one diagnostics line records it. Failures carry Apple's
/// status and a reason for people, never key bytes or plaintext.
enum KeyCall {
    /// The value of `body`, or nil with the error reported.
    static func run<Value>(
        _ name: String, error errorOut: UnsafeMutablePointer<Unmanaged<CFError>?>?, _ body: () throws(KeychainFailure) -> Value
    ) -> Value? {
        do {
            let value = try body()
            Diagnostics.log(name, status: .success)
            return value
        } catch {
            let reason = error.reason ?? error.status.explanation
            Diagnostics.log(name, status: error.status, reason: reason)
            error.status.report(reason, to: errorOut)
            return nil
        }
    }
}
