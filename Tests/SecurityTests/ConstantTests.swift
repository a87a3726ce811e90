import Security
import Testing

/// Every constant against Apple's value, typed here from Apple's SecItemConstants.c, SecBase.h,
/// SecAccessControl.h and SecKeychain.h independently of the module's own tables.
@Suite(.timeLimit(.minutes(10))) struct ConstantTests {
    static var strings: [(CFString, String)] {
        [
            (kSecClass, "class"), (kSecClassGenericPassword, "genp"), (kSecClassInternetPassword, "inet"),
            (kSecClassCertificate, "cert"), (kSecClassKey, "keys"), (kSecClassIdentity, "idnt"),
            (kSecAttrAccessible, "pdmn"), (kSecAttrAccessControl, "accc"), (kSecAttrAccessGroup, "agrp"),
            (kSecAttrCreationDate, "cdat"), (kSecAttrModificationDate, "mdat"), (kSecAttrLabel, "labl"),
            (kSecAttrSynchronizable, "sync"), (kSecAttrSyncViewHint, "vwht"), (kSecAttrTokenID, "tkid"),
            (kSecAttrPersistentReference, "persistref"), (kSecAttrPersistantReference, "persistref"),
            (kSecAttrDescription, "desc"), (kSecAttrComment, "icmt"), (kSecAttrCreator, "crtr"), (kSecAttrType, "type"),
            (kSecAttrIsInvisible, "invi"), (kSecAttrIsNegative, "nega"), (kSecAttrAccount, "acct"),
            (kSecAttrService, "svce"), (kSecAttrGeneric, "gena"), (kSecAttrSecurityDomain, "sdmn"),
            (kSecAttrServer, "srvr"), (kSecAttrProtocol, "ptcl"), (kSecAttrAuthenticationType, "atyp"),
            (kSecAttrPort, "port"), (kSecAttrPath, "path"), (kSecAttrAlias, "alis"), (kSecAttrScriptCode, "scrp"),
            (kSecAttrHasCustomIcon, "cusi"), (kSecAttrTombstone, "tomb"), (kSecAttrSHA1, "sha1"),
            (kSecAttrMultiUser, "musr"), (kSecAttrUUID, "UUID"), (kSecAttrSysBound, "sysb"),
            (kSecAttrPCSPlaintextServiceIdentifier, "pcss"), (kSecAttrPCSPlaintextPublicKey, "pcsk"),
            (kSecAttrPCSPlaintextPublicIdentity, "pcsi"), (kSecAttrAppClipItem, "clip"), (kSecAttrSharingGroup, "ggrp"),
            (kSecDataInetExtraNotes, "binn"), (kSecDataInetExtraHistory, "bini"),
            (kSecDataInetExtraClientDefined0, "bin0"), (kSecDataInetExtraClientDefined1, "bin1"),
            (kSecDataInetExtraClientDefined2, "bin2"), (kSecDataInetExtraClientDefined3, "bin3"),
            (kSecAttrCertificateType, "ctyp"), (kSecAttrCertificateEncoding, "cenc"), (kSecAttrSubject, "subj"),
            (kSecAttrIssuer, "issr"), (kSecAttrSerialNumber, "slnr"), (kSecAttrSubjectKeyID, "skid"),
            (kSecAttrPublicKeyHash, "pkhh"), (kSecAttrKeyClass, "kcls"), (kSecAttrApplicationLabel, "klbl"),
            (kSecAttrApplicationTag, "atag"), (kSecAttrKeyCreator, "crtr"), (kSecAttrKeyType, "type"),
            (kSecAttrKeySizeInBits, "bsiz"), (kSecAttrEffectiveKeySize, "esiz"), (kSecAttrIsPermanent, "perm"),
            (kSecAttrIsPrivate, "priv"), (kSecAttrIsModifiable, "modi"), (kSecAttrStartDate, "sdat"),
            (kSecAttrEndDate, "edat"), (kSecAttrIsSensitive, "sens"), (kSecAttrWasAlwaysSensitive, "asen"),
            (kSecAttrIsExtractable, "extr"), (kSecAttrWasNeverExtractable, "next"), (kSecAttrCanEncrypt, "encr"),
            (kSecAttrCanDecrypt, "decr"), (kSecAttrCanDerive, "drve"), (kSecAttrCanSign, "sign"),
            (kSecAttrCanVerify, "vrfy"), (kSecAttrCanSignRecover, "snrc"), (kSecAttrCanVerifyRecover, "vyrc"),
            (kSecAttrCanWrap, "wrap"), (kSecAttrCanUnwrap, "unwp"),
            (kSecAttrAccessibleWhenUnlocked, "ak"), (kSecAttrAccessibleAfterFirstUnlock, "ck"),
            (kSecAttrAccessibleAlways, "dk"), (kSecAttrAccessibleWhenUnlockedThisDeviceOnly, "aku"),
            (kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, "cku"), (kSecAttrAccessibleAlwaysThisDeviceOnly, "dku"),
            (kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, "akpu"),
            (kSecAttrProtocolFTP, "ftp "), (kSecAttrProtocolFTPAccount, "ftpa"), (kSecAttrProtocolHTTP, "http"),
            (kSecAttrProtocolIRC, "irc "), (kSecAttrProtocolNNTP, "nntp"), (kSecAttrProtocolPOP3, "pop3"),
            (kSecAttrProtocolSMTP, "smtp"), (kSecAttrProtocolSOCKS, "sox "), (kSecAttrProtocolIMAP, "imap"),
            (kSecAttrProtocolLDAP, "ldap"), (kSecAttrProtocolAppleTalk, "atlk"), (kSecAttrProtocolAFP, "afp "),
            (kSecAttrProtocolTelnet, "teln"), (kSecAttrProtocolSSH, "ssh "), (kSecAttrProtocolFTPS, "ftps"),
            (kSecAttrProtocolHTTPS, "htps"), (kSecAttrProtocolHTTPProxy, "htpx"), (kSecAttrProtocolHTTPSProxy, "htsx"),
            (kSecAttrProtocolFTPProxy, "ftpx"), (kSecAttrProtocolSMB, "smb "), (kSecAttrProtocolRTSP, "rtsp"),
            (kSecAttrProtocolRTSPProxy, "rtsx"), (kSecAttrProtocolDAAP, "daap"), (kSecAttrProtocolEPPC, "eppc"),
            (kSecAttrProtocolIPP, "ipp "), (kSecAttrProtocolNNTPS, "ntps"), (kSecAttrProtocolLDAPS, "ldps"),
            (kSecAttrProtocolTelnetS, "tels"), (kSecAttrProtocolIMAPS, "imps"), (kSecAttrProtocolIRCS, "ircs"),
            (kSecAttrProtocolPOP3S, "pops"),
            (kSecAttrAuthenticationTypeNTLM, "ntlm"), (kSecAttrAuthenticationTypeMSN, "msna"),
            (kSecAttrAuthenticationTypeDPA, "dpaa"), (kSecAttrAuthenticationTypeRPA, "rpaa"),
            (kSecAttrAuthenticationTypeHTTPBasic, "http"), (kSecAttrAuthenticationTypeHTTPDigest, "httd"),
            (kSecAttrAuthenticationTypeHTMLForm, "form"), (kSecAttrAuthenticationTypeDefault, "dflt"),
            (kSecMatchPolicy, "m_Policy"), (kSecMatchItemList, "m_ItemList"), (kSecMatchSearchList, "m_SearchList"),
            (kSecMatchIssuers, "m_Issuers"), (kSecMatchEmailAddressIfPresent, "m_EmailAddressIfPresent"),
            (kSecMatchSubjectContains, "m_SubjectContains"), (kSecMatchCaseInsensitive, "m_CaseInsensitive"),
            (kSecMatchTrustedOnly, "m_TrustedOnly"), (kSecMatchValidOnDate, "m_ValidOnDate"),
            (kSecMatchLimit, "m_Limit"), (kSecMatchHostOrSubdomainOfHost, "m_HostOrSubdomainOfHost"),
            (kSecMatchLimitOne, "m_LimitOne"), (kSecMatchLimitAll, "m_LimitAll"),
            (kSecReturnData, "r_Data"), (kSecReturnAttributes, "r_Attributes"), (kSecReturnRef, "r_Ref"),
            (kSecReturnPersistentRef, "r_PersistentRef"), (kSecValueData, "v_Data"), (kSecValueRef, "v_Ref"),
            (kSecValuePersistentRef, "v_PersistentRef"), (kSecUseItemList, "u_ItemList"), (kSecUseTombstones, "u_Tomb"),
            (kSecUseCredentialReference, "u_CredRef"), (kSecUseOperationPrompt, "u_OpPrompt"),
            (kSecUseNoAuthenticationUI, "u_NoAuthUI"), (kSecUseAuthenticationUI, "u_AuthUI"),
            (kSecUseAuthenticationUIAllow, "u_AuthUIA"), (kSecUseAuthenticationUIFail, "u_AuthUIF"),
            (kSecUseAuthenticationUISkip, "u_AuthUIS"), (kSecUseAuthenticationContext, "u_AuthCtx"),
            (kSecUseDataProtectionKeychain, "nleg"), (kSecUseUserIndependentKeychain, "u_UserIndependentKeychain"),
            (kSecAttrSynchronizableAny, "syna"), (kSecAttrAccessGroupToken, "com.apple.token"),
            (kSecAttrKeyClassPublic, "0"), (kSecAttrKeyClassPrivate, "1"), (kSecAttrKeyClassSymmetric, "2"),
            (kSecAttrKeyTypeRSA, "42"), (kSecAttrKeyTypeEC, "73"), (kSecAttrKeyTypeECSECPrimeRandom, "73"),
            (kSecAttrKeyTypeECSECPrimeRandomPKA, "2147483678"), (kSecAttrKeyTypeSecureEnclaveAttestation, "2147483679"),
            (kSecAttrKeyTypeSecureEnclaveAnonymousAttestation, "2147483680"), (kSecAttrKeyTypeEd25519, "105"),
            (kSecAttrKeyTypeX25519, "106"), (kSecAttrKeyTypeEd448, "107"), (kSecAttrKeyTypeX448, "108"),
            (kSecAttrKeyTypeKyber, "109"), (kSecAttrKeyTypeMLKEM, "110"), (kSecAttrKeyTypeMLDSA, "111"),
            (kSecAttrTokenIDSecureEnclave, "com.apple.setoken"), (kSecPrivateKeyAttrs, "private"),
            (kSecPublicKeyAttrs, "public"),
        ]
    }

    @Test func everyStringConstantHasApplesValue() {
        for (constant, value) in Self.strings { #expect(constant as String == value) }
        #expect(Self.strings.count == 182)
    }

    @Test func statusCodesHaveApplesValues() {
        let expected: [(OSStatus, OSStatus)] = [
            (errSecSuccess, 0), (noErr, 0), (errSecUnimplemented, -4), (errSecIO, -36), (errSecParam, -50),
            (errSecWrPerm, -61), (errSecAllocate, -108), (errSecUserCanceled, -128), (errSecBadReq, -909),
            (errSecNotAvailable, -25291), (errSecReadOnly, -25292), (errSecAuthFailed, -25293),
            (errSecNoSuchKeychain, -25294), (errSecDuplicateItem, -25299), (errSecItemNotFound, -25300),
            (errSecNoSuchAttr, -25303), (errSecNoSuchClass, -25306), (errSecInteractionNotAllowed, -25308),
            (errSecInvalidOwnerEdit, -25244), (errSecDecode, -26275), (errSecMissingEntitlement, -34018),
            (errSecRestrictedAPI, -34020), (errSecAuthNeeded, -25330), (errSecInternal, -26276),
            (errSecUpgradePending, -34019), (errSecCoreFoundationUnknown, -4960),
            (errSecCertificateIsCA, -67902), (errSecMissingQualifiedCertStatement, -67904),
        ]
        for (constant, value) in expected { #expect(constant == value) }
    }

    @Test func lockStatusBitsAreApples() {
        #expect(kSecUnlockStateStatus == 1)
        #expect(kSecReadPermStatus == 2)
        #expect(kSecWritePermStatus == 4)
    }
}
