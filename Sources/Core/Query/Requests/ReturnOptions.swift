/// The `kSecReturn…` flags of a request.
public struct ReturnOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: UInt8
    /// Options from raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `kSecReturnData`: the secret.
    public static let data = ReturnOptions(rawValue: 1 << 0)
    /// `kSecReturnAttributes`: the attribute dictionary.
    public static let attributes = ReturnOptions(rawValue: 1 << 1)
    /// `kSecReturnRef`: a `SecKey`/`SecCertificate`/`SecIdentity` (nothing for passwords).
    public static let ref = ReturnOptions(rawValue: 1 << 2)
    /// `kSecReturnPersistentRef`: the persistent reference.
    public static let persistentRef = ReturnOptions(rawValue: 1 << 3)

    /// How many flags are set.
    var count: Int { rawValue.nonzeroBitCount }

    /// The option a `kSecReturn…` key sets, or nil for an unknown `r…` key.
    static func option(forKey key: String) -> ReturnOptions? {
        switch key {
        case QueryKey.returnData: .data
        case QueryKey.returnAttributes: .attributes
        case QueryKey.returnRef: .ref
        case QueryKey.returnPersistentRef: .persistentRef
        default: nil
        }
    }
}
