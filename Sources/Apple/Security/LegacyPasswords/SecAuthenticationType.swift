import Query

/// The authentication scheme of an Internet password, as macOS's legacy calls take it (`SecAuthenticationType`).
///
/// As in Apple's header, each raw value holds its four characters in memory order: on a little-endian
/// machine `.default.rawValue` is `'dflt'` byte-swapped. The stored `kSecAttrAuthenticationType` is those
/// four characters, the string ``kSecAttrAuthenticationTypeDefault`` and the others hold (`"dflt"`).
///
/// ``any`` (0) means "no scheme": find then matches every scheme, and add stores none.
public enum SecAuthenticationType: RawRepresentable, Hashable, Sendable {
    /// Windows NT LAN Manager (`'ntlm'`).
    case NTLM
    /// Microsoft Network (`'msna'`).
    case MSN
    /// Distributed Password Authentication (`'dpaa'`).
    case DPA
    /// Remote Passphrase Authentication (`'rpaa'`).
    case RPA
    /// HTTP basic (`'http'`).
    case httpBasic
    /// HTTP digest (`'httd'`).
    case httpDigest
    /// An HTML form (`'form'`).
    case htmlForm
    /// The default scheme (`'dflt'`).
    case `default`
    /// Any scheme (0): no scheme on add, no scheme filter on find.
    case any

    // The raw values depend on the machine's byte order, so they are computed, not written as literals.

    /// The code as Apple's header defines it: the four characters in memory order.
    public var rawValue: FourCharCode { Self.memoryOrder(bigEndianCode) }

    /// The case whose raw value (four characters in memory order) is `rawValue`.
    public init?(rawValue: FourCharCode) {
        guard let match = Self.allCodes.first(where: { Self.memoryOrder($0.bigEndianCode) == rawValue }) else { return nil }
        self = match
    }

    /// The `kSecAttrAuthenticationType` value: the four characters; nil for ``any``.
    var attributeValue: KeychainValue? {
        self == .any ? nil : .string(bigEndianCode.fourCharacterText)
    }

    private var bigEndianCode: FourCharCode {
        switch self {
        case .NTLM: 0x6E74_6C6D
        case .MSN: 0x6D73_6E61
        case .DPA: 0x6470_6161
        case .RPA: 0x7270_6161
        case .httpBasic: 0x6874_7470
        case .httpDigest: 0x6874_7464
        case .htmlForm: 0x666F_726D
        case .default: 0x6466_6C74
        case .any: 0
        }
    }

    private static let allCodes: [SecAuthenticationType] = [.NTLM, .MSN, .DPA, .RPA, .httpBasic, .httpDigest, .htmlForm, .default, .any]

    /// A big-endian code as the integer whose bytes in memory are its characters in order.
    private static func memoryOrder(_ code: FourCharCode) -> FourCharCode { code.bigEndian }
}
