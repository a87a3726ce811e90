import Foundation
import KeychainModel
import Query

// Apple's `kSec…` constants (keychain reference §1, §2, §4.1, §7) with Apple's string values.
//
// The values come from the Query module's tables (QueryKey, QueryConstant, the attribute schema) and
// ProtectionClass, which were checked against Apple's source; only the key attribute values of §7, which
// no Coffer table holds yet, are written here (from Apple's SecItemConstants.c).
//
// `nonisolated(unsafe)`: on Apple platforms these are `CFString`s; here `CFString` is `NSString`, which
// swift-corelibs-foundation does not mark `Sendable`. Each constant is an immutable `NSString` that is
// never mutated after its one-time, thread-safe initialisation, so sharing it between threads is safe.

// MARK: - Item classes (§1.1)

/// The dictionary key of the item class (`class`).
nonisolated(unsafe) public let kSecClass: CFString = constant(QueryKey.itemClass)
/// A generic password (`genp`).
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = constant(QueryConstant.classGenericPassword)
/// An internet password (`inet`).
nonisolated(unsafe) public let kSecClassInternetPassword: CFString = constant(QueryConstant.classInternetPassword)
/// A certificate (`cert`).
nonisolated(unsafe) public let kSecClassCertificate: CFString = constant(QueryConstant.classCertificate)
/// A cryptographic key (`keys`).
nonisolated(unsafe) public let kSecClassKey: CFString = constant(QueryConstant.classKey)
/// An identity: a certificate with its private key (`idnt`).
nonisolated(unsafe) public let kSecClassIdentity: CFString = constant(QueryConstant.classIdentity)

// MARK: - Attributes (§1.3)

/// When the item can be used: one of the `kSecAttrAccessible…` values (`pdmn`).
nonisolated(unsafe) public let kSecAttrAccessible: CFString = constant(QueryKey.accessible)
/// A ``SecAccessControl`` (`accc`).
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = constant(QueryKey.accessControl)
/// The item's access group (`agrp`).
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = constant(QueryKey.accessGroup)
/// When the item was added (`cdat`).
nonisolated(unsafe) public let kSecAttrCreationDate: CFString = constant(QueryKey.creationDate)
/// When the item was last changed (`mdat`).
nonisolated(unsafe) public let kSecAttrModificationDate: CFString = constant(QueryKey.modificationDate)
/// A label for people (`labl`).
nonisolated(unsafe) public let kSecAttrLabel: CFString = constant(QueryKey.label)
/// Whether the item is synchronized (`sync`).
nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = constant(QueryKey.synchronizable)
/// The synchronization view (`vwht`).
nonisolated(unsafe) public let kSecAttrSyncViewHint: CFString = constant(QueryKey.syncViewHint)
/// The token that holds the item (`tkid`).
nonisolated(unsafe) public let kSecAttrTokenID: CFString = constant(QueryKey.tokenID)
/// The item's persistent reference (`persistref`).
nonisolated(unsafe) public let kSecAttrPersistentReference: CFString = constant(QueryKey.persistentReference)
/// Apple's misspelled alias of ``kSecAttrPersistentReference``.
nonisolated(unsafe) public let kSecAttrPersistantReference: CFString = constant(QueryKey.persistentReference)
/// A description for people (`desc`).
nonisolated(unsafe) public let kSecAttrDescription: CFString = constant(QueryKey.description)
/// A comment (`icmt`).
nonisolated(unsafe) public let kSecAttrComment: CFString = constant(QueryKey.comment)
/// The creator code (`crtr`).
nonisolated(unsafe) public let kSecAttrCreator: CFString = constant(QueryKey.creator)
/// The type code (`type`).
nonisolated(unsafe) public let kSecAttrType: CFString = constant(QueryKey.type)
/// Whether the item is hidden from people (`invi`).
nonisolated(unsafe) public let kSecAttrIsInvisible: CFString = constant(QueryKey.isInvisible)
/// Whether the item is a placeholder without a valid password (`nega`).
nonisolated(unsafe) public let kSecAttrIsNegative: CFString = constant(QueryKey.isNegative)
/// The account name (`acct`).
nonisolated(unsafe) public let kSecAttrAccount: CFString = constant(QueryKey.account)
/// The service name (`svce`).
nonisolated(unsafe) public let kSecAttrService: CFString = constant(QueryKey.service)
/// Application data (`gena`).
nonisolated(unsafe) public let kSecAttrGeneric: CFString = constant(QueryKey.generic)
/// The security domain (`sdmn`).
nonisolated(unsafe) public let kSecAttrSecurityDomain: CFString = constant(QueryKey.securityDomain)
/// The server's name or address (`srvr`).
nonisolated(unsafe) public let kSecAttrServer: CFString = constant(QueryKey.server)
/// The protocol: one of the `kSecAttrProtocol…` values (`ptcl`).
nonisolated(unsafe) public let kSecAttrProtocol: CFString = constant(QueryKey.`protocol`)
/// The authentication scheme: one of the `kSecAttrAuthenticationType…` values (`atyp`).
nonisolated(unsafe) public let kSecAttrAuthenticationType: CFString = constant(QueryKey.authenticationType)
/// The port number (`port`).
nonisolated(unsafe) public let kSecAttrPort: CFString = constant(QueryKey.port)
/// The path (`path`).
nonisolated(unsafe) public let kSecAttrPath: CFString = constant(QueryKey.path)
/// An alias (`alis`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrAlias: CFString = constant(QueryKey.alias)
/// The script code (`scrp`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrScriptCode: CFString = constant(QueryKey.scriptCode)
/// Whether the item has a custom icon (`cusi`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrHasCustomIcon: CFString = constant(QueryKey.hasCustomIcon)
/// Whether the item is a tombstone (`tomb`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrTombstone: CFString = constant(QueryKey.tombstone)
/// The item's digest (`sha1`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrSHA1: CFString = constant(QueryKey.sha1)
/// The user view (`musr`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrMultiUser: CFString = constant(QueryKey.multiUser)
/// The synchronization identifier (`UUID`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrUUID: CFString = constant(QueryKey.uuid)
/// System binding flags (`sysb`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrSysBound: CFString = constant(QueryKey.sysBound)
/// `pcss` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrPCSPlaintextServiceIdentifier: CFString = constant(QueryKey.pcsPlaintextServiceIdentifier)
/// `pcsk` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrPCSPlaintextPublicKey: CFString = constant(QueryKey.pcsPlaintextPublicKey)
/// `pcsi` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrPCSPlaintextPublicIdentity: CFString = constant(QueryKey.pcsPlaintextPublicIdentity)
/// Whether an App Clip made the item (`clip`; private on Apple platforms, refused in queries).
nonisolated(unsafe) public let kSecAttrAppClipItem: CFString = constant(QueryKey.appClipItem)
/// The sharing group (`ggrp`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrSharingGroup: CFString = constant(QueryKey.sharingGroup)
/// Secret notes of an internet password (`binn`; private on Apple platforms).
nonisolated(unsafe) public let kSecDataInetExtraNotes: CFString = constant(QueryKey.inetExtraNotes)
/// Secret history of an internet password (`bini`; private on Apple platforms).
nonisolated(unsafe) public let kSecDataInetExtraHistory: CFString = constant(QueryKey.inetExtraHistory)
/// Secret client data 0 of an internet password (`bin0`; private on Apple platforms).
nonisolated(unsafe) public let kSecDataInetExtraClientDefined0: CFString = constant(QueryKey.inetExtraClientDefined[0])
/// Secret client data 1 of an internet password (`bin1`; private on Apple platforms).
nonisolated(unsafe) public let kSecDataInetExtraClientDefined1: CFString = constant(QueryKey.inetExtraClientDefined[1])
/// Secret client data 2 of an internet password (`bin2`; private on Apple platforms).
nonisolated(unsafe) public let kSecDataInetExtraClientDefined2: CFString = constant(QueryKey.inetExtraClientDefined[2])
/// Secret client data 3 of an internet password (`bin3`; private on Apple platforms).
nonisolated(unsafe) public let kSecDataInetExtraClientDefined3: CFString = constant(QueryKey.inetExtraClientDefined[3])
/// The certificate type (`ctyp`).
nonisolated(unsafe) public let kSecAttrCertificateType: CFString = schemaAttribute("kSecAttrCertificateType")
/// The certificate encoding (`cenc`).
nonisolated(unsafe) public let kSecAttrCertificateEncoding: CFString = schemaAttribute("kSecAttrCertificateEncoding")
/// The certificate's normalized subject (`subj`).
nonisolated(unsafe) public let kSecAttrSubject: CFString = schemaAttribute("kSecAttrSubject")
/// The certificate's normalized issuer (`issr`).
nonisolated(unsafe) public let kSecAttrIssuer: CFString = schemaAttribute("kSecAttrIssuer")
/// The certificate's serial number (`slnr`).
nonisolated(unsafe) public let kSecAttrSerialNumber: CFString = schemaAttribute("kSecAttrSerialNumber")
/// The certificate's subject key identifier (`skid`).
nonisolated(unsafe) public let kSecAttrSubjectKeyID: CFString = schemaAttribute("kSecAttrSubjectKeyID")
/// The SHA-1 of the certificate's public key (`pkhh`).
nonisolated(unsafe) public let kSecAttrPublicKeyHash: CFString = schemaAttribute("kSecAttrPublicKeyHash")
/// The key class: one of the `kSecAttrKeyClass…` values (`kcls`).
nonisolated(unsafe) public let kSecAttrKeyClass: CFString = schemaAttribute("kSecAttrKeyClass")
/// The key's label, normally the SHA-1 of its public key (`klbl`).
nonisolated(unsafe) public let kSecAttrApplicationLabel: CFString = schemaAttribute("kSecAttrApplicationLabel")
/// Application data that tags the key (`atag`).
nonisolated(unsafe) public let kSecAttrApplicationTag: CFString = schemaAttribute("kSecAttrApplicationTag")
/// The key's creator (`crtr`, the same string as ``kSecAttrCreator``).
nonisolated(unsafe) public let kSecAttrKeyCreator: CFString = schemaAttribute("kSecAttrKeyCreator")
/// The key's algorithm: one of the `kSecAttrKeyType…` values (`type`, the same string as ``kSecAttrType``).
nonisolated(unsafe) public let kSecAttrKeyType: CFString = schemaAttribute("kSecAttrKeyType")
/// The key size in bits (`bsiz`).
nonisolated(unsafe) public let kSecAttrKeySizeInBits: CFString = schemaAttribute("kSecAttrKeySizeInBits")
/// The effective key size in bits (`esiz`).
nonisolated(unsafe) public let kSecAttrEffectiveKeySize: CFString = schemaAttribute("kSecAttrEffectiveKeySize")
/// Whether the key is stored in the keychain (`perm`).
nonisolated(unsafe) public let kSecAttrIsPermanent: CFString = schemaAttribute("kSecAttrIsPermanent")
/// `priv` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrIsPrivate: CFString = schemaAttribute("kSecAttrIsPrivate")
/// `modi` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrIsModifiable: CFString = schemaAttribute("kSecAttrIsModifiable")
/// `sdat` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrStartDate: CFString = schemaAttribute("kSecAttrStartDate")
/// `edat` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrEndDate: CFString = schemaAttribute("kSecAttrEndDate")
/// Whether the key can be exported only wrapped (`sens`).
nonisolated(unsafe) public let kSecAttrIsSensitive: CFString = schemaAttribute("kSecAttrIsSensitive")
/// `asen` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrWasAlwaysSensitive: CFString = schemaAttribute("kSecAttrWasAlwaysSensitive")
/// Whether the key can be exported (`extr`).
nonisolated(unsafe) public let kSecAttrIsExtractable: CFString = schemaAttribute("kSecAttrIsExtractable")
/// `next` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrWasNeverExtractable: CFString = schemaAttribute("kSecAttrWasNeverExtractable")
/// Whether the key can encrypt (`encr`).
nonisolated(unsafe) public let kSecAttrCanEncrypt: CFString = schemaAttribute("kSecAttrCanEncrypt")
/// Whether the key can decrypt (`decr`).
nonisolated(unsafe) public let kSecAttrCanDecrypt: CFString = schemaAttribute("kSecAttrCanDecrypt")
/// Whether the key can derive keys (`drve`).
nonisolated(unsafe) public let kSecAttrCanDerive: CFString = schemaAttribute("kSecAttrCanDerive")
/// Whether the key can sign (`sign`).
nonisolated(unsafe) public let kSecAttrCanSign: CFString = schemaAttribute("kSecAttrCanSign")
/// Whether the key can verify (`vrfy`).
nonisolated(unsafe) public let kSecAttrCanVerify: CFString = schemaAttribute("kSecAttrCanVerify")
/// `snrc` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrCanSignRecover: CFString = schemaAttribute("kSecAttrCanSignRecover")
/// `vyrc` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrCanVerifyRecover: CFString = schemaAttribute("kSecAttrCanVerifyRecover")
/// Whether the key can wrap keys (`wrap`).
nonisolated(unsafe) public let kSecAttrCanWrap: CFString = schemaAttribute("kSecAttrCanWrap")
/// Whether the key can unwrap keys (`unwp`).
nonisolated(unsafe) public let kSecAttrCanUnwrap: CFString = schemaAttribute("kSecAttrCanUnwrap")

// MARK: - Protection classes (§1.3, §4.1)

/// Usable while the keychain is unlocked (`ak`); the default.
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = constant(ProtectionClass.whenUnlocked.rawValue)
/// Usable from the first unlock until the process ends (`ck`).
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = constant(ProtectionClass.afterFirstUnlock.rawValue)
/// Always usable (`dk`; deprecated by Apple).
nonisolated(unsafe) public let kSecAttrAccessibleAlways: CFString = constant(ProtectionClass.always.rawValue)
/// As ``kSecAttrAccessibleWhenUnlocked``, never leaving this machine (`aku`).
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = constant(ProtectionClass.whenUnlockedThisDeviceOnly.rawValue)
/// As ``kSecAttrAccessibleAfterFirstUnlock``, never leaving this machine (`cku`).
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = constant(ProtectionClass.afterFirstUnlockThisDeviceOnly.rawValue)
/// As ``kSecAttrAccessibleAlways``, never leaving this machine (`dku`; deprecated by Apple).
nonisolated(unsafe) public let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = constant(ProtectionClass.alwaysThisDeviceOnly.rawValue)
/// Usable while unlocked, and only while a passcode is set (`akpu`).
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = constant(ProtectionClass.whenPasscodeSetThisDeviceOnly.rawValue)

// MARK: - Internet protocols and authentication types (§1.3.2)

/// The FTP protocol.
nonisolated(unsafe) public let kSecAttrProtocolFTP: CFString = tableValue(QueryConstant.protocols, "FTP")
/// The FTPAccount protocol.
nonisolated(unsafe) public let kSecAttrProtocolFTPAccount: CFString = tableValue(QueryConstant.protocols, "FTPAccount")
/// The HTTP protocol.
nonisolated(unsafe) public let kSecAttrProtocolHTTP: CFString = tableValue(QueryConstant.protocols, "HTTP")
/// The IRC protocol.
nonisolated(unsafe) public let kSecAttrProtocolIRC: CFString = tableValue(QueryConstant.protocols, "IRC")
/// The NNTP protocol.
nonisolated(unsafe) public let kSecAttrProtocolNNTP: CFString = tableValue(QueryConstant.protocols, "NNTP")
/// The POP3 protocol.
nonisolated(unsafe) public let kSecAttrProtocolPOP3: CFString = tableValue(QueryConstant.protocols, "POP3")
/// The SMTP protocol.
nonisolated(unsafe) public let kSecAttrProtocolSMTP: CFString = tableValue(QueryConstant.protocols, "SMTP")
/// The SOCKS protocol.
nonisolated(unsafe) public let kSecAttrProtocolSOCKS: CFString = tableValue(QueryConstant.protocols, "SOCKS")
/// The IMAP protocol.
nonisolated(unsafe) public let kSecAttrProtocolIMAP: CFString = tableValue(QueryConstant.protocols, "IMAP")
/// The LDAP protocol.
nonisolated(unsafe) public let kSecAttrProtocolLDAP: CFString = tableValue(QueryConstant.protocols, "LDAP")
/// The AppleTalk protocol.
nonisolated(unsafe) public let kSecAttrProtocolAppleTalk: CFString = tableValue(QueryConstant.protocols, "AppleTalk")
/// The AFP protocol.
nonisolated(unsafe) public let kSecAttrProtocolAFP: CFString = tableValue(QueryConstant.protocols, "AFP")
/// The Telnet protocol.
nonisolated(unsafe) public let kSecAttrProtocolTelnet: CFString = tableValue(QueryConstant.protocols, "Telnet")
/// The SSH protocol.
nonisolated(unsafe) public let kSecAttrProtocolSSH: CFString = tableValue(QueryConstant.protocols, "SSH")
/// The FTPS protocol.
nonisolated(unsafe) public let kSecAttrProtocolFTPS: CFString = tableValue(QueryConstant.protocols, "FTPS")
/// The HTTPS protocol.
nonisolated(unsafe) public let kSecAttrProtocolHTTPS: CFString = tableValue(QueryConstant.protocols, "HTTPS")
/// The HTTPProxy protocol.
nonisolated(unsafe) public let kSecAttrProtocolHTTPProxy: CFString = tableValue(QueryConstant.protocols, "HTTPProxy")
/// The HTTPSProxy protocol.
nonisolated(unsafe) public let kSecAttrProtocolHTTPSProxy: CFString = tableValue(QueryConstant.protocols, "HTTPSProxy")
/// The FTPProxy protocol.
nonisolated(unsafe) public let kSecAttrProtocolFTPProxy: CFString = tableValue(QueryConstant.protocols, "FTPProxy")
/// The SMB protocol.
nonisolated(unsafe) public let kSecAttrProtocolSMB: CFString = tableValue(QueryConstant.protocols, "SMB")
/// The RTSP protocol.
nonisolated(unsafe) public let kSecAttrProtocolRTSP: CFString = tableValue(QueryConstant.protocols, "RTSP")
/// The RTSPProxy protocol.
nonisolated(unsafe) public let kSecAttrProtocolRTSPProxy: CFString = tableValue(QueryConstant.protocols, "RTSPProxy")
/// The DAAP protocol.
nonisolated(unsafe) public let kSecAttrProtocolDAAP: CFString = tableValue(QueryConstant.protocols, "DAAP")
/// The EPPC protocol.
nonisolated(unsafe) public let kSecAttrProtocolEPPC: CFString = tableValue(QueryConstant.protocols, "EPPC")
/// The IPP protocol.
nonisolated(unsafe) public let kSecAttrProtocolIPP: CFString = tableValue(QueryConstant.protocols, "IPP")
/// The NNTPS protocol.
nonisolated(unsafe) public let kSecAttrProtocolNNTPS: CFString = tableValue(QueryConstant.protocols, "NNTPS")
/// The LDAPS protocol.
nonisolated(unsafe) public let kSecAttrProtocolLDAPS: CFString = tableValue(QueryConstant.protocols, "LDAPS")
/// The TelnetS protocol.
nonisolated(unsafe) public let kSecAttrProtocolTelnetS: CFString = tableValue(QueryConstant.protocols, "TelnetS")
/// The IMAPS protocol.
nonisolated(unsafe) public let kSecAttrProtocolIMAPS: CFString = tableValue(QueryConstant.protocols, "IMAPS")
/// The IRCS protocol.
nonisolated(unsafe) public let kSecAttrProtocolIRCS: CFString = tableValue(QueryConstant.protocols, "IRCS")
/// The POP3S protocol.
nonisolated(unsafe) public let kSecAttrProtocolPOP3S: CFString = tableValue(QueryConstant.protocols, "POP3S")
/// Authentication by NTLM.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeNTLM: CFString = tableValue(QueryConstant.authenticationTypes, "NTLM")
/// Authentication by MSN.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeMSN: CFString = tableValue(QueryConstant.authenticationTypes, "MSN")
/// Authentication by DPA.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDPA: CFString = tableValue(QueryConstant.authenticationTypes, "DPA")
/// Authentication by RPA.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeRPA: CFString = tableValue(QueryConstant.authenticationTypes, "RPA")
/// Authentication by HTTP basic.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPBasic: CFString = tableValue(QueryConstant.authenticationTypes, "HTTPBasic")
/// Authentication by HTTP digest.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPDigest: CFString = tableValue(QueryConstant.authenticationTypes, "HTTPDigest")
/// Authentication by an HTML form.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTMLForm: CFString = tableValue(QueryConstant.authenticationTypes, "HTMLForm")
/// Authentication by the default scheme.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDefault: CFString = tableValue(QueryConstant.authenticationTypes, "Default")

// MARK: - Search, return, value and use keys (§2)

/// Match certificates trusted under a policy.
nonisolated(unsafe) public let kSecMatchPolicy: CFString = constant(QueryKey.matchPolicy)
/// Search only these items (ignored, as on iOS).
nonisolated(unsafe) public let kSecMatchItemList: CFString = constant(QueryKey.matchItemList)
/// Search these keychains (ignored, as on iOS).
nonisolated(unsafe) public let kSecMatchSearchList: CFString = constant(QueryKey.matchSearchList)
/// Match certificates issued by these names.
nonisolated(unsafe) public let kSecMatchIssuers: CFString = constant(QueryKey.matchIssuers)
/// Match certificates with this e-mail address.
nonisolated(unsafe) public let kSecMatchEmailAddressIfPresent: CFString = constant(QueryKey.matchEmailAddressIfPresent)
/// Match subjects containing this string (ignored, as on iOS).
nonisolated(unsafe) public let kSecMatchSubjectContains: CFString = constant(QueryKey.matchSubjectContains)
/// Compare case-insensitively (ignored, as on iOS).
nonisolated(unsafe) public let kSecMatchCaseInsensitive: CFString = constant(QueryKey.matchCaseInsensitive)
/// Match only trusted certificates.
nonisolated(unsafe) public let kSecMatchTrustedOnly: CFString = constant(QueryKey.matchTrustedOnly)
/// Match certificates valid on this date.
nonisolated(unsafe) public let kSecMatchValidOnDate: CFString = constant(QueryKey.matchValidOnDate)
/// How many items to return: ``kSecMatchLimitOne`` (the default), ``kSecMatchLimitAll`` or a number.
nonisolated(unsafe) public let kSecMatchLimit: CFString = constant(QueryKey.matchLimit)
/// Match internet passwords for this host or its subdomains.
nonisolated(unsafe) public let kSecMatchHostOrSubdomainOfHost: CFString = constant(QueryKey.matchHostOrSubdomainOfHost)
/// Return the item's data (`kCFBooleanTrue`).
nonisolated(unsafe) public let kSecReturnData: CFString = constant(QueryKey.returnData)
/// Return the item's attributes (`kCFBooleanTrue`).
nonisolated(unsafe) public let kSecReturnAttributes: CFString = constant(QueryKey.returnAttributes)
/// Return a reference to the key, certificate or identity (`kCFBooleanTrue`).
nonisolated(unsafe) public let kSecReturnRef: CFString = constant(QueryKey.returnRef)
/// Return the item's persistent reference (`kCFBooleanTrue`).
nonisolated(unsafe) public let kSecReturnPersistentRef: CFString = constant(QueryKey.returnPersistentRef)
/// The item's secret data.
nonisolated(unsafe) public let kSecValueData: CFString = constant(QueryKey.valueData)
/// A key, certificate or identity object.
nonisolated(unsafe) public let kSecValueRef: CFString = constant(QueryKey.valueRef)
/// A persistent reference that selects one item.
nonisolated(unsafe) public let kSecValuePersistentRef: CFString = constant(QueryKey.valuePersistentRef)
/// Deprecated; refused or ignored, as on iOS.
nonisolated(unsafe) public let kSecUseItemList: CFString = constant(QueryKey.useItemList)
/// Whether deletes leave tombstones (private on Apple platforms).
nonisolated(unsafe) public let kSecUseTombstones: CFString = constant(QueryKey.useTombstones)
/// An authentication credential handle (private on Apple platforms).
nonisolated(unsafe) public let kSecUseCredentialReference: CFString = constant(QueryKey.useCredentialReference)
/// The reason shown when authentication is needed.
nonisolated(unsafe) public let kSecUseOperationPrompt: CFString = constant(QueryKey.useOperationPrompt)
/// Deprecated: `true` fails instead of asking for authentication.
nonisolated(unsafe) public let kSecUseNoAuthenticationUI: CFString = constant(QueryKey.useNoAuthenticationUI)
/// Whether authentication may be asked for: ``kSecUseAuthenticationUIAllow``, ``kSecUseAuthenticationUIFail`` or ``kSecUseAuthenticationUISkip``.
nonisolated(unsafe) public let kSecUseAuthenticationUI: CFString = constant(QueryKey.useAuthenticationUI)
/// An `LAContext` to authenticate with.
nonisolated(unsafe) public let kSecUseAuthenticationContext: CFString = constant(QueryKey.useAuthenticationContext)
/// Use the data-protection keychain (`nleg`); accepted and ignored, as every item is in it.
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = constant(QueryKey.useDataProtectionKeychain)
/// The user-independent keychain; needs an Apple-private entitlement (``errSecMissingEntitlement``).
nonisolated(unsafe) public let kSecUseUserIndependentKeychain: CFString = entitledUseKey("u_UserIndependentKeychain")
/// Return at most one item.
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = constant(QueryConstant.matchLimitOne)
/// Return every matching item.
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = constant(QueryConstant.matchLimitAll)
/// Ask for authentication when needed (the default).
nonisolated(unsafe) public let kSecUseAuthenticationUIAllow: CFString = constant(QueryConstant.authenticationUIAllow)
/// Fail with ``errSecInteractionNotAllowed`` instead of asking.
nonisolated(unsafe) public let kSecUseAuthenticationUIFail: CFString = constant(QueryConstant.authenticationUIFail)
/// Skip items that need authentication (searches only).
nonisolated(unsafe) public let kSecUseAuthenticationUISkip: CFString = constant(QueryConstant.authenticationUISkip)
/// As the value of ``kSecAttrSynchronizable`` in a search: synchronized and local items alike.
nonisolated(unsafe) public let kSecAttrSynchronizableAny: CFString = constant(QueryConstant.synchronizableAny)
/// The read-only access group of token items.
nonisolated(unsafe) public let kSecAttrAccessGroupToken: CFString = constant(QueryConstant.accessGroupToken)

// MARK: - Key attribute values (§7)

/// A public key.
nonisolated(unsafe) public let kSecAttrKeyClassPublic: CFString = constant("0")
/// A private key.
nonisolated(unsafe) public let kSecAttrKeyClassPrivate: CFString = constant("1")
/// A symmetric key.
nonisolated(unsafe) public let kSecAttrKeyClassSymmetric: CFString = constant("2")
/// RSA.
nonisolated(unsafe) public let kSecAttrKeyTypeRSA: CFString = constant("42")
/// Elliptic curve (the older name of ``kSecAttrKeyTypeECSECPrimeRandom``).
nonisolated(unsafe) public let kSecAttrKeyTypeEC: CFString = constant("73")
/// Elliptic curve over a prime field (P-256, P-384, P-521).
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandom: CFString = constant("73")
/// `kSecAttrKeyTypeECSECPrimeRandomPKA` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandomPKA: CFString = constant("2147483678")
/// `kSecAttrKeyTypeSecureEnclaveAttestation` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrKeyTypeSecureEnclaveAttestation: CFString = constant("2147483679")
/// `kSecAttrKeyTypeSecureEnclaveAnonymousAttestation` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrKeyTypeSecureEnclaveAnonymousAttestation: CFString = constant("2147483680")
/// Ed25519.
nonisolated(unsafe) public let kSecAttrKeyTypeEd25519: CFString = constant("105")
/// X25519.
nonisolated(unsafe) public let kSecAttrKeyTypeX25519: CFString = constant("106")
/// Ed448.
nonisolated(unsafe) public let kSecAttrKeyTypeEd448: CFString = constant("107")
/// X448.
nonisolated(unsafe) public let kSecAttrKeyTypeX448: CFString = constant("108")
/// Kyber.
nonisolated(unsafe) public let kSecAttrKeyTypeKyber: CFString = constant("109")
/// ML-KEM.
nonisolated(unsafe) public let kSecAttrKeyTypeMLKEM: CFString = constant("110")
/// ML-DSA.
nonisolated(unsafe) public let kSecAttrKeyTypeMLDSA: CFString = constant("111")
/// The Secure Enclave token, as the value of ``kSecAttrTokenID``.
nonisolated(unsafe) public let kSecAttrTokenIDSecureEnclave: CFString = constant("com.apple.setoken")
/// The dictionary of attributes for the private key of a new key pair.
nonisolated(unsafe) public let kSecPrivateKeyAttrs: CFString = constant("private")
/// The dictionary of attributes for the public key of a new key pair.
nonisolated(unsafe) public let kSecPublicKeyAttrs: CFString = constant("public")

// MARK: - Helpers

/// A constant's `NSString`.
private func constant(_ value: String) -> CFString { NSString(string: value) }

/// The code of the attribute Apple names `constantName`, from Query's attribute schema.
private func schemaAttribute(_ constantName: String) -> CFString {
    for itemClass in ItemClass.allCases {
        if let descriptor = AttributeCatalogue.descriptors(for: itemClass).first(where: { $0.constantName == constantName }) {
            return constant(descriptor.code)
        }
    }
    preconditionFailure("\(constantName) is missing from the Query module's attribute schema")
}

/// The value a Query table lists under `suffix`.
private func tableValue(_ table: [String: String], _ suffix: String) -> CFString {
    guard let value = table[suffix] else { preconditionFailure("kSec…\(suffix) is missing from the Query module's tables") }
    return constant(value)
}

/// One of the entitlement-gated `kSecUse…` keys Query lists.
private func entitledUseKey(_ key: String) -> CFString {
    guard QueryKey.entitledUseKeys.contains(key) else { preconditionFailure("\(key) is missing from QueryKey.entitledUseKeys") }
    return constant(key)
}
