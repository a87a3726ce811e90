/// What a PKCS#12 file holds: its certificates and private keys, in the order of the file, each with its bag's
/// attributes. CRL, secret and nested bags are left out.
public struct PKCS12Contents: Sendable {
    /// The certificates.
    public let certificates: [PKCS12Certificate]
    /// The private keys.
    public let privateKeys: [PKCS12PrivateKey]
}
