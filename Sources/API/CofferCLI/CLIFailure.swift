import Foundation
import KeychainModel

/// A failure the CLI reports as one line on standard error, with a non-zero exit code.
struct CLIFailure: Error {
    /// The line printed after `coffer: `; it names the problem and never contains a secret.
    let message: String
    /// The process exit code.
    let exitCode: Int32

    init(_ message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }

    /// Wraps a keystore error.
    init(_ error: KeystoreError) {
        self.init(error.description)
    }

    /// Runs `body`, turning keystore and input errors into CLI failures.
    static func reporting<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as KeystoreError {
            throw CLIFailure(error)
        } catch let error as PasscodeInput.Failure {
            throw CLIFailure(error.description)
        } catch let error as SecretInput.Failure {
            throw CLIFailure(error.description)
        }
    }
}
