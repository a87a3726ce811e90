import KeychainClient
import KeychainModel

/// Runs one lock-control call against the keystore: its error as an `OSStatus`, one diagnostics line.
enum KeychainCall {
    static func run(_ call: @autoclosure () -> String, _ body: (any KeychainClient) throws(KeystoreError) -> Void) -> OSStatus {
        do {
            try body(SharedKeychain.client)
            Diagnostics.log(call(), status: .success)
            return errSecSuccess
        } catch {
            let status = error.status
            Diagnostics.log("\(call()) (\(error))", status: status)
            return status.code
        }
    }
}
