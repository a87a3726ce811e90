import Foundation
import KeyCrypto
import KeychainModel

/// Why a `SecKey…` call failed: Apple's status and a reason for people, never key bytes or plaintext.
struct KeyFailure: Error {
    let status: KeychainStatus
    let reason: String

    init(_ status: KeychainStatus, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    init(_ error: KeyCryptoError) {
        self.init(KeychainStatus(code: error.status), error.message)
    }

    init(_ failure: KeychainFailure) {
        self.init(failure.status, failure.reason ?? failure.status.explanation)
    }
}

/// Runs one `SecKey…` call: its failure reaches the caller's `CFError` out-parameter (domain
/// `NSOSStatusErrorDomain`, Apple's code), and one diagnostics line records it.
enum KeyCall {
    /// The value of `body`, or nil with the error reported.
    static func run<Value>(
        _ name: String, error errorOut: UnsafeMutablePointer<Unmanaged<CFError>?>?, _ body: () throws(KeyFailure) -> Value
    ) -> Value? {
        do {
            let value = try body()
            Diagnostics.log(name, status: .success)
            return value
        } catch {
            Diagnostics.log(name, status: error.status, reason: error.reason)
            error.status.report(error.reason, to: errorOut)
            return nil
        }
    }
}
