/// The string values of Apple's `kSec…` value constants (the right-hand sides of a query dictionary).
public enum QueryConstant {
    /// `kSecClassGenericPassword`.
    public static let classGenericPassword = "genp"
    /// `kSecClassInternetPassword`.
    public static let classInternetPassword = "inet"
    /// `kSecClassCertificate`.
    public static let classCertificate = "cert"
    /// `kSecClassKey`.
    public static let classKey = "keys"
    /// `kSecClassIdentity`.
    public static let classIdentity = "idnt"
    /// `kSecClassAppleSharePassword`: a class string Apple still parses in persistent references but never stores.
    public static let classAppleSharePassword = "apls"

    /// `kSecMatchLimitOne`.
    public static let matchLimitOne = "m_LimitOne"
    /// `kSecMatchLimitAll`.
    public static let matchLimitAll = "m_LimitAll"

    /// `kSecUseAuthenticationUIAllow`.
    public static let authenticationUIAllow = "u_AuthUIA"
    /// `kSecUseAuthenticationUIFail`.
    public static let authenticationUIFail = "u_AuthUIF"
    /// `kSecUseAuthenticationUISkip`.
    public static let authenticationUISkip = "u_AuthUIS"

    /// `kSecAttrSynchronizableAny`: matches synchronizable and non-synchronizable items alike.
    public static let synchronizableAny = "syna"

    /// `kSecAttrAccessGroupToken`: the read-only group of token items.
    public static let accessGroupToken = "com.apple.token"

    /// `kSecAttrAccessibleUntilReboot` (SPI `f`): accepted by Apple's access-control code but not a keychain item class.
    public static let accessibleUntilReboot = "f"

    /// `kSecAttrProtocol…` values, by Apple's constant suffix.
    public static let protocols: [String: String] = [
        "FTP": "ftp ", "FTPAccount": "ftpa", "HTTP": "http", "IRC": "irc ", "NNTP": "nntp", "POP3": "pop3",
        "SMTP": "smtp", "SOCKS": "sox ", "IMAP": "imap", "LDAP": "ldap", "AppleTalk": "atlk", "AFP": "afp ",
        "Telnet": "teln", "SSH": "ssh ", "FTPS": "ftps", "HTTPS": "htps", "HTTPProxy": "htpx", "HTTPSProxy": "htsx",
        "FTPProxy": "ftpx", "SMB": "smb ", "RTSP": "rtsp", "RTSPProxy": "rtsx", "DAAP": "daap", "EPPC": "eppc",
        "IPP": "ipp ", "NNTPS": "ntps", "LDAPS": "ldps", "TelnetS": "tels", "IMAPS": "imps", "IRCS": "ircs",
        "POP3S": "pops",
    ]

    /// Key attribute values (keychain reference §7), by Apple's constant name: key classes and types as the decimal
    /// strings the keychain stores as numbers (§7.1), the Secure Enclave's token, the nested dictionaries of a new
    /// key pair, and Coffer's own names of where a kept key's private half lives.
    public static let keyAttributeValues: [String: String] = [
        "kSecAttrKeyClassPublic": "0", "kSecAttrKeyClassPrivate": "1", "kSecAttrKeyClassSymmetric": "2", "kSecAttrKeyTypeRSA": "42",
        "kSecAttrKeyTypeEC": "73", "kSecAttrKeyTypeECSECPrimeRandom": "73", "kSecAttrKeyTypeECSECPrimeRandomPKA": "2147483678",
        "kSecAttrKeyTypeSecureEnclaveAttestation": "2147483679", "kSecAttrKeyTypeSecureEnclaveAnonymousAttestation": "2147483680",
        "kSecAttrKeyTypeEd25519": "105", "kSecAttrKeyTypeX25519": "106", "kSecAttrKeyTypeEd448": "107", "kSecAttrKeyTypeX448": "108",
        "kSecAttrKeyTypeKyber": "109", "kSecAttrKeyTypeMLKEM": "110", "kSecAttrKeyTypeMLDSA": "111",
        "kSecAttrTokenIDSecureEnclave": "com.apple.setoken", "kSecPrivateKeyAttrs": "private", "kSecPublicKeyAttrs": "public",
        "kSecAttrCofferKeyHolder": "coffer-key-holder", "kSecAttrCofferKeyHolderTPM": "tpm", "kSecAttrCofferKeyHolderKeystore": "keystore",
    ]

    /// `kSecAttrAuthenticationType…` values, by Apple's constant suffix.
    public static let authenticationTypes: [String: String] = [
        "NTLM": "ntlm", "MSN": "msna", "DPA": "dpaa", "RPA": "rpaa", "HTTPBasic": "http", "HTTPDigest": "httd",
        "HTMLForm": "form", "Default": "dflt",
    ]
}
