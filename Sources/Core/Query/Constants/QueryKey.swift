/// The string values of Apple's `kSec…` dictionary keys, exactly as Apple's Security framework defines them.
///
/// The `Security` module re-exports these under Apple's names; everything else in Coffer refers to them
/// through this one table, so a key's spelling lives in one place.
public enum QueryKey {
    // MARK: Class

    /// `kSecClass`.
    public static let itemClass = "class"

    // MARK: Attributes common to every class

    /// `kSecAttrAccessible` (`pdmn`).
    public static let accessible = "pdmn"
    /// `kSecAttrAccessControl` (`accc`).
    public static let accessControl = "accc"
    /// `kSecAttrAccessGroup` (`agrp`).
    public static let accessGroup = "agrp"
    /// `kSecAttrCreationDate` (`cdat`).
    public static let creationDate = "cdat"
    /// `kSecAttrModificationDate` (`mdat`).
    public static let modificationDate = "mdat"
    /// `kSecAttrLabel` (`labl`).
    public static let label = "labl"
    /// `kSecAttrSynchronizable` (`sync`).
    public static let synchronizable = "sync"
    /// `kSecAttrTombstone` (`tomb`, SPI).
    public static let tombstone = "tomb"
    /// `kSecAttrSHA1` (`sha1`, SPI).
    public static let sha1 = "sha1"
    /// `kSecAttrSyncViewHint` (`vwht`).
    public static let syncViewHint = "vwht"
    /// `kSecAttrTokenID` (`tkid`).
    public static let tokenID = "tkid"
    /// `kSecAttrMultiUser` (`musr`, SPI).
    public static let multiUser = "musr"
    /// `kSecAttrUUID` (`UUID`, SPI).
    public static let uuid = "UUID"
    /// `kSecAttrSysBound` (`sysb`, SPI).
    public static let sysBound = "sysb"
    /// `kSecAttrPCSPlaintextServiceIdentifier` (`pcss`, SPI).
    public static let pcsPlaintextServiceIdentifier = "pcss"
    /// `kSecAttrPCSPlaintextPublicKey` (`pcsk`, SPI).
    public static let pcsPlaintextPublicKey = "pcsk"
    /// `kSecAttrPCSPlaintextPublicIdentity` (`pcsi`, SPI).
    public static let pcsPlaintextPublicIdentity = "pcsi"
    /// `kSecAttrPersistentReference` (`persistref`, SPI).
    public static let persistentReference = "persistref"
    /// `kSecAttrAppClipItem` (`clip`, SPI; callers may not pass it).
    public static let appClipItem = "clip"
    /// `kSecAttrSharingGroup` (`ggrp`, SPI).
    public static let sharingGroup = "ggrp"
    /// `kSecUseDataProtectionKeychain` (`nleg`): a four-character key the keychain ignores.
    public static let useDataProtectionKeychain = "nleg"

    // MARK: Password attributes

    /// `kSecAttrDescription` (`desc`).
    public static let description = "desc"
    /// `kSecAttrComment` (`icmt`).
    public static let comment = "icmt"
    /// `kSecAttrCreator` (`crtr`); also `kSecAttrKeyCreator`.
    public static let creator = "crtr"
    /// `kSecAttrType` (`type`); also `kSecAttrKeyType`.
    public static let type = "type"
    /// `kSecAttrScriptCode` (`scrp`, SPI).
    public static let scriptCode = "scrp"
    /// `kSecAttrAlias` (`alis`).
    public static let alias = "alis"
    /// `kSecAttrIsInvisible` (`invi`).
    public static let isInvisible = "invi"
    /// `kSecAttrIsNegative` (`nega`).
    public static let isNegative = "nega"
    /// `kSecAttrHasCustomIcon` (`cusi`, SPI).
    public static let hasCustomIcon = "cusi"
    /// The `prot` attribute, which has no public constant.
    public static let protected = "prot"
    /// `kSecAttrKeyClass` (`kcls`): public, private or symmetric.
    public static let keyClass = "kcls"
    /// `kSecAttrApplicationLabel` (`klbl`): for an asymmetric key, the SHA-1 of its public key.
    public static let applicationLabel = "klbl"
    /// `kSecAttrIdentityCertificateData` (`certdata`, SPI): in an identity's attributes, its certificate's DER.
    public static let identityCertificateData = "certdata"
    /// `kSecAttrIdentityCertificateTokenID` (`certtkid`, SPI): in an identity's attributes, its certificate's token.
    public static let identityCertificateTokenID = "certtkid"
    /// `kSecAttrApplicationTag` (`atag`): the app's own tag for a key.
    public static let applicationTag = "atag"
    /// `kSecAttrKeySizeInBits` (`bsiz`).
    public static let keySizeInBits = "bsiz"
    /// `kSecAttrIsPermanent` (`perm`): whether key generation stores the key.
    public static let isPermanent = "perm"
    /// `kSecAttrAccount` (`acct`).
    public static let account = "acct"
    /// `kSecAttrService` (`svce`).
    public static let service = "svce"
    /// `kSecAttrGeneric` (`gena`).
    public static let generic = "gena"
    /// `kSecAttrSecurityDomain` (`sdmn`).
    public static let securityDomain = "sdmn"
    /// `kSecAttrServer` (`srvr`).
    public static let server = "srvr"
    /// `kSecAttrProtocol` (`ptcl`).
    public static let `protocol` = "ptcl"
    /// `kSecAttrAuthenticationType` (`atyp`).
    public static let authenticationType = "atyp"
    /// `kSecAttrPort` (`port`).
    public static let port = "port"
    /// `kSecAttrPath` (`path`).
    public static let path = "path"
    /// `kSecDataInetExtraNotes` (`binn`, SPI).
    public static let inetExtraNotes = "binn"
    /// `kSecDataInetExtraHistory` (`bini`, SPI).
    public static let inetExtraHistory = "bini"
    /// `kSecDataInetExtraClientDefined0` … `3` (`bin0` … `bin3`, SPI).
    public static let inetExtraClientDefined = ["bin0", "bin1", "bin2", "bin3"]

    // MARK: Match keys

    /// `kSecMatchLimit`.
    public static let matchLimit = "m_Limit"
    /// `kSecMatchPolicy`.
    public static let matchPolicy = "m_Policy"
    /// `kSecMatchItemList`.
    public static let matchItemList = "m_ItemList"
    /// `kSecMatchSearchList`.
    public static let matchSearchList = "m_SearchList"
    /// `kSecMatchIssuers`.
    public static let matchIssuers = "m_Issuers"
    /// `kSecMatchEmailAddressIfPresent`.
    public static let matchEmailAddressIfPresent = "m_EmailAddressIfPresent"
    /// `kSecMatchSubjectContains`.
    public static let matchSubjectContains = "m_SubjectContains"
    /// `kSecMatchCaseInsensitive`.
    public static let matchCaseInsensitive = "m_CaseInsensitive"
    /// `kSecMatchTrustedOnly`.
    public static let matchTrustedOnly = "m_TrustedOnly"
    /// `kSecMatchValidOnDate`.
    public static let matchValidOnDate = "m_ValidOnDate"
    /// `kSecMatchHostOrSubdomainOfHost`.
    public static let matchHostOrSubdomainOfHost = "m_HostOrSubdomainOfHost"

    // MARK: Return keys

    /// `kSecReturnData`.
    public static let returnData = "r_Data"
    /// `kSecReturnAttributes`.
    public static let returnAttributes = "r_Attributes"
    /// `kSecReturnRef`.
    public static let returnRef = "r_Ref"
    /// `kSecReturnPersistentRef`.
    public static let returnPersistentRef = "r_PersistentRef"

    // MARK: Value keys

    /// `kSecValueData`.
    public static let valueData = "v_Data"
    /// `kSecValueRef`.
    public static let valueRef = "v_Ref"
    /// `kSecValuePersistentRef`.
    public static let valuePersistentRef = "v_PersistentRef"

    // MARK: Use keys

    /// `kSecUseItemList`.
    public static let useItemList = "u_ItemList"
    /// `kSecUseTombstones` (SPI).
    public static let useTombstones = "u_Tomb"
    /// `kSecUseCredentialReference` (SPI).
    public static let useCredentialReference = "u_CredRef"
    /// `kSecUseOperationPrompt`.
    public static let useOperationPrompt = "u_OpPrompt"
    /// `kSecUseNoAuthenticationUI` (deprecated).
    public static let useNoAuthenticationUI = "u_NoAuthUI"
    /// `kSecUseAuthenticationUI`.
    public static let useAuthenticationUI = "u_AuthUI"
    /// `kSecUseAuthenticationContext`.
    public static let useAuthenticationContext = "u_AuthCtx"
    /// Private `kSecUse…` keys that need an Apple-private entitlement (`errSecMissingEntitlement` without it).
    public static let entitledUseKeys: Set<String> = [
        "u_SystemKeychain", "u_SystemKeychainAlways", "u_SyncBubbleKeychain", "u_UserIndependentKeychain",
        "u_CallerName", "u_TokenRawItems", "u_CertWithIssuers",
    ]
}
