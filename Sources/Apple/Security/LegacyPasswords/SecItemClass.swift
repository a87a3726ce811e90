/// The class of an item in the legacy calls (`SecItemClass`), as ``SecKeychainItemCopyContent(_:_:_:_:_:)``
/// reports it: a four-character code for passwords, a CSSM record type for the others.
public enum SecItemClass: FourCharCode, Sendable {
    /// An internet password (`'inet'`).
    case internetPasswordItemClass = 0x696E_6574
    /// A generic password (`'genp'`).
    case genericPasswordItemClass = 0x6765_6E70
    /// An AppleShare password (`'ashp'`, deprecated).
    case appleSharePasswordItemClass = 0x6173_6870
    /// A certificate.
    case certificateItemClass = 0x8000_1000
    /// A public key.
    case publicKeyItemClass = 0x0000_000F
    /// A private key.
    case privateKeyItemClass = 0x0000_0010
    /// A symmetric key.
    case symmetricKeyItemClass = 0x0000_0011
}
