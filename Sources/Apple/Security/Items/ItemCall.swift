import KeychainClient
import KeychainModel
import Query

/// Runs one `SecItem…` call: the engine's answer as an `OSStatus`, the result through the caller's pointer,
/// one diagnostics line.
enum ItemCall {
    /// Runs `body`; its value reaches the caller as `present` makes it (Foundation objects by default).
    static func run(
        _ call: @autoclosure () -> String, result: UnsafeMutablePointer<CFTypeRef?>?,
        present: (KeychainValue) -> AnyObject? = { ValueBridge.result($0) },
        _ body: (any KeychainClient) throws(KeychainFailure) -> KeychainValue?
    ) -> OSStatus {
        do {
            let value = try body(SharedKeychain.client)
            if let value, let result { result.pointee = present(value) }
            Diagnostics.log(call(), status: .success, result: value.map { Diagnostics.render(result: $0) })
            return errSecSuccess
        } catch {
            Diagnostics.log(call(), status: error.status, reason: error.reason)
            return error.status.code
        }
    }
}
