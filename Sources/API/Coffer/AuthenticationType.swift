import Query

/// How an internet password authenticates (`kSecAttrAuthenticationType`), with Apple's codes.
///
/// Codes Coffer does not know are kept as ``other(_:)``; ``init(code:)`` maps every known code to its
/// case, so build values from codes with it rather than with ``other(_:)``.
public enum AuthenticationType: Sendable, Hashable, RawRepresentable {
    /// `kSecAttrAuthenticationTypeNTLM` (`ntlm`).
    case ntlm
    /// `kSecAttrAuthenticationTypeMSN` (`msna`).
    case msn
    /// `kSecAttrAuthenticationTypeDPA` (`dpaa`).
    case dpa
    /// `kSecAttrAuthenticationTypeRPA` (`rpaa`).
    case rpa
    /// `kSecAttrAuthenticationTypeHTTPBasic` (`http`).
    case httpBasic
    /// `kSecAttrAuthenticationTypeHTTPDigest` (`httd`).
    case httpDigest
    /// `kSecAttrAuthenticationTypeHTMLForm` (`form`).
    case htmlForm
    /// `kSecAttrAuthenticationTypeDefault` (`dflt`).
    case `default`
    /// A code that is none of Apple's constants, kept as stored.
    case other(String)

    /// Every authentication type Apple defines a constant for.
    public static let knownCases: [AuthenticationType] = [
        .ntlm, .msn, .dpa, .rpa, .httpBasic, .httpDigest, .htmlForm, .default,
    ]

    /// The type with this code: a known case, or ``other(_:)``.
    public init(code: String) {
        self = Self.byCode[code] ?? .other(code)
    }

    /// The type with this code (see ``init(code:)``); never nil.
    public init?(rawValue: String) {
        self.init(code: rawValue)
    }

    /// Apple's four-character code, such as `form` (the value stored in `atyp`).
    public var rawValue: String {
        if case .other(let code) = self { return code }
        return QueryConstant.authenticationTypes[appleName] ?? appleName
    }

    /// The suffix of Apple's constant name, the key of ``QueryConstant/authenticationTypes``.
    private var appleName: String {
        switch self {
        case .ntlm: "NTLM"
        case .msn: "MSN"
        case .dpa: "DPA"
        case .rpa: "RPA"
        case .httpBasic: "HTTPBasic"
        case .httpDigest: "HTTPDigest"
        case .htmlForm: "HTMLForm"
        case .default: "Default"
        case .other(let code): code
        }
    }

    private static let byCode: [String: AuthenticationType] = Dictionary(
        knownCases.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
}
