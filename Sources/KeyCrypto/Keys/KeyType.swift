/// The kind of an asymmetric key, numbered as Apple's `kSecAttrKeyType` values (the strings "42" and "73",
/// stored as numbers).
public enum KeyType: Int, Sendable, Hashable {
    /// RSA (`kSecAttrKeyTypeRSA`).
    case rsa = 42
    /// Elliptic curve over a NIST prime field: P-256, P-384 or P-521 (`kSecAttrKeyTypeECSECPrimeRandom`).
    case ellipticCurve = 73
}
