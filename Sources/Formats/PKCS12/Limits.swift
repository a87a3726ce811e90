/// The bounds this reader puts on what a file may ask for, so that a hostile file cannot make it work for hours
/// or allocate without end.
public enum PKCS12Limits {
    /// The most iterations a MAC, a PKCS#12 KDF or PBKDF2 may ask for (OpenSSL writes 2,048; 10 million take
    /// seconds). More is refused as malformed.
    public static let maximumIterations = 10_000_000
    /// The longest salt accepted, in bytes.
    public static let maximumSaltLength = 1_024
    /// The most bags in one file, all contents together.
    public static let maximumBags = 10_000
    /// The most key derivation work one file may ask for, its MAC, contents and shrouded keys together, in
    /// iterations times digest blocks produced (a file OpenSSL writes asks for about 6,000; two derivations at
    /// ``maximumIterations`` fit, which take seconds). More is refused as malformed before the derivation that
    /// would pass it runs.
    public static let maximumTotalWork = 2 * maximumIterations
}
