/// A keychain item class (`kSecClass`), with Apple's four-character string values.
public enum ItemClass: String, Sendable, Hashable, CaseIterable, Codable {
    /// `kSecClassGenericPassword`.
    case genericPassword = "genp"
    /// `kSecClassInternetPassword`.
    case internetPassword = "inet"
    /// `kSecClassCertificate`.
    case certificate = "cert"
    /// `kSecClassKey`.
    case key = "keys"
    /// `kSecClassIdentity`: a certificate joined with its private key; it has no storage of its own.
    case identity = "idnt"
}
