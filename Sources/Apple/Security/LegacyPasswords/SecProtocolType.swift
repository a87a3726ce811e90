import Query

/// The protocol of an Internet password, as macOS's legacy calls take it (`SecProtocolType`): a four-character
/// code, the same four characters as the `kSecAttrProtocol…` string ``kSecAttrProtocolHTTPS`` and the others
/// store (`.HTTPS` is `'htps'`, stored as `"htps"`).
///
/// ``any`` (0) means "no protocol": ``SecKeychainFindInternetPassword(_:_:_:_:_:_:_:_:_:_:_:_:_:_:_:)`` then
/// matches every protocol, and ``SecKeychainAddInternetPassword(_:_:_:_:_:_:_:_:_:_:_:_:_:_:_:)`` stores none.
public enum SecProtocolType: FourCharCode, Sendable {
    /// FTP (`'ftp '`).
    case FTP = 0x6674_7020
    /// An FTP account, client side (`'ftpa'`); deprecated by Apple since macOS 10.3.
    case ftpAccount = 0x6674_7061
    /// HTTP (`'http'`).
    case HTTP = 0x6874_7470
    /// IRC (`'irc '`).
    case IRC = 0x6972_6320
    /// NNTP (`'nntp'`).
    case NNTP = 0x6E6E_7470
    /// POP3 (`'pop3'`).
    case POP3 = 0x706F_7033
    /// SMTP (`'smtp'`).
    case SMTP = 0x736D_7470
    /// SOCKS (`'sox '`).
    case SOCKS = 0x736F_7820
    /// IMAP (`'imap'`).
    case IMAP = 0x696D_6170
    /// LDAP (`'ldap'`).
    case LDAP = 0x6C64_6170
    /// AFP over AppleTalk (`'atlk'`).
    case appleTalk = 0x6174_6C6B
    /// AFP over TCP (`'afp '`).
    case AFP = 0x6166_7020
    /// Telnet (`'teln'`).
    case telnet = 0x7465_6C6E
    /// SSH (`'ssh '`).
    case SSH = 0x7373_6820
    /// FTP over TLS (`'ftps'`).
    case FTPS = 0x6674_7073
    /// HTTP over TLS (`'htps'`).
    case HTTPS = 0x6874_7073
    /// An HTTP proxy (`'htpx'`).
    case httpProxy = 0x6874_7078
    /// An HTTPS proxy (`'htsx'`).
    case httpsProxy = 0x6874_7378
    /// An FTP proxy (`'ftpx'`).
    case ftpProxy = 0x6674_7078
    /// CIFS (`'cifs'`).
    case CIFS = 0x6369_6673
    /// SMB (`'smb '`).
    case SMB = 0x736D_6220
    /// RTSP (`'rtsp'`).
    case RTSP = 0x7274_7370
    /// An RTSP proxy (`'rtsx'`).
    case rtspProxy = 0x7274_7378
    /// DAAP (`'daap'`).
    case DAAP = 0x6461_6170
    /// Remote Apple Events (`'eppc'`).
    case EPPC = 0x6570_7063
    /// IPP (`'ipp '`).
    case IPP = 0x6970_7020
    /// NNTP over TLS (`'ntps'`).
    case NNTPS = 0x6E74_7073
    /// LDAP over TLS (`'ldps'`).
    case LDAPS = 0x6C64_7073
    /// Telnet over TLS (`'tels'`).
    case telnetS = 0x7465_6C73
    /// IMAP over TLS (`'imps'`).
    case IMAPS = 0x696D_7073
    /// IRC over TLS (`'ircs'`).
    case IRCS = 0x6972_6373
    /// POP3 over TLS (`'pops'`).
    case POP3S = 0x706F_7073
    /// CVS pserver (`'cvsp'`).
    case cvSpserver = 0x6376_7370
    /// Subversion (`'svn '`).
    case SVN = 0x7376_6E20
    /// Any protocol (0): no protocol on add, no protocol filter on find.
    case any = 0

    /// The `kSecAttrProtocol` value: the code's four characters; nil for ``any``.
    var attributeValue: KeychainValue? {
        self == .any ? nil : .string(rawValue.fourCharacterText)
    }
}
