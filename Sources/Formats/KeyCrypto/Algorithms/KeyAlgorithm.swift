/// A `SecKeyAlgorithm`: Apple's string naming an operation's exact transformation, such as
/// `algid:sign:ECDSA:message-X962:SHA256`.
///
/// Every constant of SecKey.h is a static member named like Apple's without the `kSecKeyAlgorithm` prefix
/// (``ecdsaSignatureMessageX962SHA256``); ``all`` lists them. Any other string is a valid value that no key
/// supports, as on Apple's systems.
public struct KeyAlgorithm: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// Apple's string for the algorithm.
    public let rawValue: String

    /// The algorithm Apple names `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Apple's string.
    public var description: String { rawValue }
}
