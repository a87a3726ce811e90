import Crypto
import CryptoExtras
import Foundation

/// A password as PostgreSQL stores it for SCRAM-SHA-256 authentication (`SCRAM-SHA-256$<iterations>:<salt>$<stored
/// key>:<server key>`, RFC 5802 and RFC 7677): given to `CREATE ROLE … PASSWORD`, so that the password itself never
/// reaches the server, its statement log or its catalog.
struct SCRAMVerifier: Sendable {
    /// PostgreSQL's own default iteration count.
    static let iterations = 4096

    /// The verifier's text.
    let text: String

    /// The verifier of `password`, with a random 16-byte salt.
    init(password: String) throws {
        let salt = SymmetricKey(size: SymmetricKeySize(bitCount: 128)).withUnsafeBytes { Data($0) }
        try self.init(password: password, salt: salt)
    }

    /// The verifier of `password` with `salt` (tests compare it with PostgreSQL's own).
    init(password: String, salt: Data) throws {
        let salted = try KDF.Insecure.PBKDF2.deriveKey(
            from: Data(password.utf8), salt: salt, using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: Self.iterations)
        let clientKey = Data(HMAC<SHA256>.authenticationCode(for: Data("Client Key".utf8), using: salted))
        let storedKey = Data(SHA256.hash(data: clientKey))
        let serverKey = Data(HMAC<SHA256>.authenticationCode(for: Data("Server Key".utf8), using: salted))
        text = "SCRAM-SHA-256$\(Self.iterations):\(salt.base64EncodedString())$\(storedKey.base64EncodedString()):\(serverKey.base64EncodedString())"
    }
}
