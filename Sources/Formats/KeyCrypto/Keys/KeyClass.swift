/// Which half of a key pair a key is, numbered as Apple's `kSecAttrKeyClass` values.
public enum KeyClass: Int, Sendable, Hashable {
    /// `kSecAttrKeyClassPublic`.
    case publicKey = 0
    /// `kSecAttrKeyClassPrivate`: the private key, which also holds its public key.
    case privateKey = 1
}
