import Crypto
import Foundation

extension AgentKey {
    /// The key's fingerprint as `ssh-add -l` and `ssh-keygen -l` print it: `SHA256:` and the unpadded base64 of
    /// SHA-256 of its public key blob.
    public var fingerprint: String {
        "SHA256:" + Data(SHA256.hash(data: blob)).base64EncodedString().replacingOccurrences(of: "=", with: "")
    }
}
