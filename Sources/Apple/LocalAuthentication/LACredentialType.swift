/// The kinds of credential ``LAContext/setCredential(_:type:)`` accepts, with Apple's raw values.
public enum LACredentialType: Int, Sendable, Hashable {
    /// The application password of items made with `kSecAccessControlApplicationPassword`.
    case applicationPassword = 0
    /// A smart card's PIN. Coffer has no smart cards, so setting one fails.
    case smartCardPIN = -3
}
