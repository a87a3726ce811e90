import Query

/// The protocol of an internet password (`kSecAttrProtocol`), with Apple's four-character codes.
///
/// Codes Coffer does not know are kept as ``other(_:)``; ``init(code:)`` maps every known code to its
/// case, so build values from codes with it rather than with ``other(_:)``.
public enum InternetProtocol: Sendable, Hashable, RawRepresentable {
    /// `kSecAttrProtocolFTP` (`"ftp "`).
    case ftp
    /// `kSecAttrProtocolFTPAccount` (`ftpa`).
    case ftpAccount
    /// `kSecAttrProtocolHTTP` (`http`).
    case http
    /// `kSecAttrProtocolIRC` (`"irc "`).
    case irc
    /// `kSecAttrProtocolNNTP` (`nntp`).
    case nntp
    /// `kSecAttrProtocolPOP3` (`pop3`).
    case pop3
    /// `kSecAttrProtocolSMTP` (`smtp`).
    case smtp
    /// `kSecAttrProtocolSOCKS` (`"sox "`).
    case socks
    /// `kSecAttrProtocolIMAP` (`imap`).
    case imap
    /// `kSecAttrProtocolLDAP` (`ldap`).
    case ldap
    /// `kSecAttrProtocolAppleTalk` (`atlk`).
    case appleTalk
    /// `kSecAttrProtocolAFP` (`"afp "`).
    case afp
    /// `kSecAttrProtocolTelnet` (`teln`).
    case telnet
    /// `kSecAttrProtocolSSH` (`"ssh "`).
    case ssh
    /// `kSecAttrProtocolFTPS` (`ftps`).
    case ftps
    /// `kSecAttrProtocolHTTPS` (`htps`).
    case https
    /// `kSecAttrProtocolHTTPProxy` (`htpx`).
    case httpProxy
    /// `kSecAttrProtocolHTTPSProxy` (`htsx`).
    case httpsProxy
    /// `kSecAttrProtocolFTPProxy` (`ftpx`).
    case ftpProxy
    /// `kSecAttrProtocolSMB` (`"smb "`).
    case smb
    /// `kSecAttrProtocolRTSP` (`rtsp`).
    case rtsp
    /// `kSecAttrProtocolRTSPProxy` (`rtsx`).
    case rtspProxy
    /// `kSecAttrProtocolDAAP` (`daap`).
    case daap
    /// `kSecAttrProtocolEPPC` (`eppc`).
    case eppc
    /// `kSecAttrProtocolIPP` (`"ipp "`).
    case ipp
    /// `kSecAttrProtocolNNTPS` (`ntps`).
    case nntps
    /// `kSecAttrProtocolLDAPS` (`ldps`).
    case ldaps
    /// `kSecAttrProtocolTelnetS` (`tels`).
    case telnetS
    /// `kSecAttrProtocolIMAPS` (`imps`).
    case imaps
    /// `kSecAttrProtocolIRCS` (`ircs`).
    case ircs
    /// `kSecAttrProtocolPOP3S` (`pops`).
    case pop3s
    /// A code that is none of Apple's constants, kept as stored.
    case other(String)

    /// Every protocol Apple defines a constant for.
    public static let knownCases: [InternetProtocol] = [
        .ftp, .ftpAccount, .http, .irc, .nntp, .pop3, .smtp, .socks, .imap, .ldap, .appleTalk, .afp, .telnet,
        .ssh, .ftps, .https, .httpProxy, .httpsProxy, .ftpProxy, .smb, .rtsp, .rtspProxy, .daap, .eppc, .ipp,
        .nntps, .ldaps, .telnetS, .imaps, .ircs, .pop3s,
    ]

    /// The protocol with this code: a known case, or ``other(_:)``.
    public init(code: String) {
        self = Self.byCode[code] ?? .other(code)
    }

    /// The protocol with this code (see ``init(code:)``); never nil.
    public init?(rawValue: String) {
        self.init(code: rawValue)
    }

    /// Apple's four-character code, such as `htps` (the value stored in `ptcl`).
    public var rawValue: String {
        if case .other(let code) = self { return code }
        return QueryConstant.protocols[appleName] ?? appleName
    }

    /// The suffix of Apple's constant name (`HTTPS` for `kSecAttrProtocolHTTPS`), the key of
    /// ``QueryConstant/protocols``.
    private var appleName: String {
        switch self {
        case .ftp: "FTP"
        case .ftpAccount: "FTPAccount"
        case .http: "HTTP"
        case .irc: "IRC"
        case .nntp: "NNTP"
        case .pop3: "POP3"
        case .smtp: "SMTP"
        case .socks: "SOCKS"
        case .imap: "IMAP"
        case .ldap: "LDAP"
        case .appleTalk: "AppleTalk"
        case .afp: "AFP"
        case .telnet: "Telnet"
        case .ssh: "SSH"
        case .ftps: "FTPS"
        case .https: "HTTPS"
        case .httpProxy: "HTTPProxy"
        case .httpsProxy: "HTTPSProxy"
        case .ftpProxy: "FTPProxy"
        case .smb: "SMB"
        case .rtsp: "RTSP"
        case .rtspProxy: "RTSPProxy"
        case .daap: "DAAP"
        case .eppc: "EPPC"
        case .ipp: "IPP"
        case .nntps: "NNTPS"
        case .ldaps: "LDAPS"
        case .telnetS: "TelnetS"
        case .imaps: "IMAPS"
        case .ircs: "IRCS"
        case .pop3s: "POP3S"
        case .other(let code): code
        }
    }

    private static let byCode: [String: InternetProtocol] = Dictionary(
        knownCases.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
}
