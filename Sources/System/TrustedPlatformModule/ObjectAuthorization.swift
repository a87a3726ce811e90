import Crypto
import Foundation

/// The authorisation value a TPM object is made and used with: empty for a keychain's own objects, 32 bytes derived
/// from the caller's uid for the objects cofferd's TPM service makes.
///
/// It is a secret of the service (whoever knows it may use the object), so it is never logged or printed.
public struct ObjectAuthorization: Sendable, CustomStringConvertible {
    /// The value's bytes; empty for none.
    let bytes: Data

    /// No authorisation value.
    public init() { bytes = Data() }

    /// `bytes` as the value (at most 32 bytes, the objects' name algorithm's digest).
    public init(_ bytes: Data) throws(TPMError) {
        guard bytes.count <= PlatformTPM.authorizationCapacity else {
            throw TPMError(code: 0xC0FF_0003, reason: "a TPM object's authorisation value is at most \(PlatformTPM.authorizationCapacity) bytes")
        }
        self.bytes = bytes
    }

    /// An HMAC-SHA256 as the value: 32 bytes, the most an object with a SHA-256 name may have.
    public init(_ code: HashedAuthenticationCode<SHA256>) { bytes = Data(code) }

    /// Never the value.
    public var description: String { bytes.isEmpty ? "none" : "<redacted>" }

    func withBytes<Result>(_ body: (UnsafePointer<UInt8>?, Int) -> Result) -> Result {
        bytes.withUnsafeBytes { body($0.bindMemory(to: UInt8.self).baseAddress, $0.count) }
    }
}
