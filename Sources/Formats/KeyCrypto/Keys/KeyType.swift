/// The kind of an asymmetric key, numbered as Apple's `kSecAttrKeyType` values (the strings "42", "73" and
/// "105", stored as numbers).
public enum KeyType: Int, Sendable, Hashable {
    /// RSA (`kSecAttrKeyTypeRSA`).
    case rsa = 42
    /// Elliptic curve over a NIST prime field: P-256, P-384 or P-521 (`kSecAttrKeyTypeECSECPrimeRandom`).
    case ellipticCurve = 73
    /// Ed25519 (`kSecAttrKeyTypeEd25519`, SPI on Apple's systems since macOS 14 and iOS 17), for signatures only.
    case ed25519 = 105
}

extension KeyType {
    /// The family's short name for messages: "RSA", "EC" or "Ed25519".
    var familyName: String {
        switch self {
        case .rsa: "RSA"
        case .ellipticCurve: "EC"
        case .ed25519: "Ed25519"
        }
    }
}
