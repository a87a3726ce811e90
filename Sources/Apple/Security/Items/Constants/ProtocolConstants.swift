import Foundation
import Query

// Apple's internet protocols, the values of `kSecAttrProtocol` (keychain reference §1.3.2).
// `nonisolated(unsafe)`: see CFString+ItemConstants.swift.

/// The FTP protocol.
nonisolated(unsafe) public let kSecAttrProtocolFTP: CFString = .tableValue(QueryConstant.protocols, "FTP")
/// The FTPAccount protocol.
nonisolated(unsafe) public let kSecAttrProtocolFTPAccount: CFString = .tableValue(QueryConstant.protocols, "FTPAccount")
/// The HTTP protocol.
nonisolated(unsafe) public let kSecAttrProtocolHTTP: CFString = .tableValue(QueryConstant.protocols, "HTTP")
/// The IRC protocol.
nonisolated(unsafe) public let kSecAttrProtocolIRC: CFString = .tableValue(QueryConstant.protocols, "IRC")
/// The NNTP protocol.
nonisolated(unsafe) public let kSecAttrProtocolNNTP: CFString = .tableValue(QueryConstant.protocols, "NNTP")
/// The POP3 protocol.
nonisolated(unsafe) public let kSecAttrProtocolPOP3: CFString = .tableValue(QueryConstant.protocols, "POP3")
/// The SMTP protocol.
nonisolated(unsafe) public let kSecAttrProtocolSMTP: CFString = .tableValue(QueryConstant.protocols, "SMTP")
/// The SOCKS protocol.
nonisolated(unsafe) public let kSecAttrProtocolSOCKS: CFString = .tableValue(QueryConstant.protocols, "SOCKS")
/// The IMAP protocol.
nonisolated(unsafe) public let kSecAttrProtocolIMAP: CFString = .tableValue(QueryConstant.protocols, "IMAP")
/// The LDAP protocol.
nonisolated(unsafe) public let kSecAttrProtocolLDAP: CFString = .tableValue(QueryConstant.protocols, "LDAP")
/// The AppleTalk protocol.
nonisolated(unsafe) public let kSecAttrProtocolAppleTalk: CFString = .tableValue(QueryConstant.protocols, "AppleTalk")
/// The AFP protocol.
nonisolated(unsafe) public let kSecAttrProtocolAFP: CFString = .tableValue(QueryConstant.protocols, "AFP")
/// The Telnet protocol.
nonisolated(unsafe) public let kSecAttrProtocolTelnet: CFString = .tableValue(QueryConstant.protocols, "Telnet")
/// The SSH protocol.
nonisolated(unsafe) public let kSecAttrProtocolSSH: CFString = .tableValue(QueryConstant.protocols, "SSH")
/// The FTPS protocol.
nonisolated(unsafe) public let kSecAttrProtocolFTPS: CFString = .tableValue(QueryConstant.protocols, "FTPS")
/// The HTTPS protocol.
nonisolated(unsafe) public let kSecAttrProtocolHTTPS: CFString = .tableValue(QueryConstant.protocols, "HTTPS")
/// The HTTPProxy protocol.
nonisolated(unsafe) public let kSecAttrProtocolHTTPProxy: CFString = .tableValue(QueryConstant.protocols, "HTTPProxy")
/// The HTTPSProxy protocol.
nonisolated(unsafe) public let kSecAttrProtocolHTTPSProxy: CFString = .tableValue(QueryConstant.protocols, "HTTPSProxy")
/// The FTPProxy protocol.
nonisolated(unsafe) public let kSecAttrProtocolFTPProxy: CFString = .tableValue(QueryConstant.protocols, "FTPProxy")
/// The SMB protocol.
nonisolated(unsafe) public let kSecAttrProtocolSMB: CFString = .tableValue(QueryConstant.protocols, "SMB")
/// The RTSP protocol.
nonisolated(unsafe) public let kSecAttrProtocolRTSP: CFString = .tableValue(QueryConstant.protocols, "RTSP")
/// The RTSPProxy protocol.
nonisolated(unsafe) public let kSecAttrProtocolRTSPProxy: CFString = .tableValue(QueryConstant.protocols, "RTSPProxy")
/// The DAAP protocol.
nonisolated(unsafe) public let kSecAttrProtocolDAAP: CFString = .tableValue(QueryConstant.protocols, "DAAP")
/// The EPPC protocol.
nonisolated(unsafe) public let kSecAttrProtocolEPPC: CFString = .tableValue(QueryConstant.protocols, "EPPC")
/// The IPP protocol.
nonisolated(unsafe) public let kSecAttrProtocolIPP: CFString = .tableValue(QueryConstant.protocols, "IPP")
/// The NNTPS protocol.
nonisolated(unsafe) public let kSecAttrProtocolNNTPS: CFString = .tableValue(QueryConstant.protocols, "NNTPS")
/// The LDAPS protocol.
nonisolated(unsafe) public let kSecAttrProtocolLDAPS: CFString = .tableValue(QueryConstant.protocols, "LDAPS")
/// The TelnetS protocol.
nonisolated(unsafe) public let kSecAttrProtocolTelnetS: CFString = .tableValue(QueryConstant.protocols, "TelnetS")
/// The IMAPS protocol.
nonisolated(unsafe) public let kSecAttrProtocolIMAPS: CFString = .tableValue(QueryConstant.protocols, "IMAPS")
/// The IRCS protocol.
nonisolated(unsafe) public let kSecAttrProtocolIRCS: CFString = .tableValue(QueryConstant.protocols, "IRCS")
/// The POP3S protocol.
nonisolated(unsafe) public let kSecAttrProtocolPOP3S: CFString = .tableValue(QueryConstant.protocols, "POP3S")
