import Crypto
import Foundation

/// The public half of a TPM's storage root key (the ECC P-256 primary of the owner hierarchy made from the TCG's
/// template): the same on every start of the same TPM until its owner hierarchy is cleared, and different on any
/// other TPM. A keychain records it at enrolment and refuses a TPM that answers with another.
public struct StorageRootKey: Sendable, Hashable, Codable {
    /// The point's x coordinate, 32 bytes.
    public let x: Data
    /// The point's y coordinate, 32 bytes.
    public let y: Data

    /// A key from its coordinates.
    public init(x: Data, y: Data) {
        self.x = x
        self.y = y
    }

    /// SHA-256 of the uncompressed point (`04 ‖ x ‖ y`), in hexadecimal: what `coffer keystore status` shows.
    public var fingerprint: String {
        SHA256.hash(data: Data([4]) + x + y).map { String(format: "%02x", $0) }.joined()
    }
}
