// The `errSec…` result codes of Apple's Security framework, with Apple's values (base/SecBase.h, plus the
// three private codes the keychain reference §3.1 uses). Names and values are Apple's API; nothing else is.

/// A result code: zero for success, an `errSec…` value otherwise.
public typealias OSStatus = Int32

/// No error (`0`), the classic Mac OS spelling of ``errSecSuccess``.
public let noErr: OSStatus = 0

public let errSecSuccess: OSStatus = 0
public let errSecUnimplemented: OSStatus = -4
public let errSecDiskFull: OSStatus = -34
public let errSecIO: OSStatus = -36
public let errSecOpWr: OSStatus = -49
public let errSecParam: OSStatus = -50
public let errSecWrPerm: OSStatus = -61
public let errSecAllocate: OSStatus = -108
public let errSecUserCanceled: OSStatus = -128
public let errSecBadReq: OSStatus = -909
public let errSecInternalComponent: OSStatus = -2070
public let errSecCoreFoundationUnknown: OSStatus = -4960
public let errSecMissingEntitlement: OSStatus = -34018
public let errSecRestrictedAPI: OSStatus = -34020
public let errSecNotAvailable: OSStatus = -25291
public let errSecReadOnly: OSStatus = -25292
public let errSecAuthFailed: OSStatus = -25293
public let errSecNoSuchKeychain: OSStatus = -25294
public let errSecInvalidKeychain: OSStatus = -25295
public let errSecDuplicateKeychain: OSStatus = -25296
public let errSecDuplicateCallback: OSStatus = -25297
public let errSecInvalidCallback: OSStatus = -25298
public let errSecDuplicateItem: OSStatus = -25299
public let errSecItemNotFound: OSStatus = -25300
public let errSecBufferTooSmall: OSStatus = -25301
public let errSecDataTooLarge: OSStatus = -25302
public let errSecNoSuchAttr: OSStatus = -25303
public let errSecInvalidItemRef: OSStatus = -25304
public let errSecInvalidSearchRef: OSStatus = -25305
public let errSecNoSuchClass: OSStatus = -25306
public let errSecNoDefaultKeychain: OSStatus = -25307
public let errSecInteractionNotAllowed: OSStatus = -25308
public let errSecReadOnlyAttr: OSStatus = -25309
public let errSecWrongSecVersion: OSStatus = -25310
public let errSecKeySizeNotAllowed: OSStatus = -25311
public let errSecNoStorageModule: OSStatus = -25312
public let errSecNoCertificateModule: OSStatus = -25313
public let errSecNoPolicyModule: OSStatus = -25314
public let errSecInteractionRequired: OSStatus = -25315
public let errSecDataNotAvailable: OSStatus = -25316
public let errSecDataNotModifiable: OSStatus = -25317
public let errSecCreateChainFailed: OSStatus = -25318
public let errSecInvalidPrefsDomain: OSStatus = -25319
public let errSecInDarkWake: OSStatus = -25320
public let errSecACLNotSimple: OSStatus = -25240
public let errSecPolicyNotFound: OSStatus = -25241
public let errSecInvalidTrustSetting: OSStatus = -25242
public let errSecNoAccessForItem: OSStatus = -25243
public let errSecInvalidOwnerEdit: OSStatus = -25244
public let errSecTrustNotAvailable: OSStatus = -25245
public let errSecUnsupportedFormat: OSStatus = -25256
public let errSecUnknownFormat: OSStatus = -25257
public let errSecKeyIsSensitive: OSStatus = -25258
public let errSecMultiplePrivKeys: OSStatus = -25259
public let errSecPassphraseRequired: OSStatus = -25260
public let errSecInvalidPasswordRef: OSStatus = -25261
public let errSecInvalidTrustSettings: OSStatus = -25262
public let errSecNoTrustSettings: OSStatus = -25263
public let errSecPkcs12VerifyFailure: OSStatus = -25264
public let errSecNotSigner: OSStatus = -26267
public let errSecDecode: OSStatus = -26275
public let errSecServiceNotAvailable: OSStatus = -67585
public let errSecInsufficientClientID: OSStatus = -67586
public let errSecDeviceReset: OSStatus = -67587
public let errSecDeviceFailed: OSStatus = -67588
public let errSecAppleAddAppACLSubject: OSStatus = -67589
public let errSecApplePublicKeyIncomplete: OSStatus = -67590
public let errSecAppleSignatureMismatch: OSStatus = -67591
public let errSecAppleInvalidKeyStartDate: OSStatus = -67592
public let errSecAppleInvalidKeyEndDate: OSStatus = -67593
public let errSecConversionError: OSStatus = -67594
public let errSecAppleSSLv2Rollback: OSStatus = -67595
public let errSecQuotaExceeded: OSStatus = -67596
public let errSecFileTooBig: OSStatus = -67597
public let errSecInvalidDatabaseBlob: OSStatus = -67598
public let errSecInvalidKeyBlob: OSStatus = -67599
public let errSecIncompatibleDatabaseBlob: OSStatus = -67600
public let errSecIncompatibleKeyBlob: OSStatus = -67601
public let errSecHostNameMismatch: OSStatus = -67602
public let errSecUnknownCriticalExtensionFlag: OSStatus = -67603
public let errSecNoBasicConstraints: OSStatus = -67604
public let errSecNoBasicConstraintsCA: OSStatus = -67605
public let errSecInvalidAuthorityKeyID: OSStatus = -67606
public let errSecInvalidSubjectKeyID: OSStatus = -67607
public let errSecInvalidKeyUsageForPolicy: OSStatus = -67608
public let errSecInvalidExtendedKeyUsage: OSStatus = -67609
public let errSecInvalidIDLinkage: OSStatus = -67610
public let errSecPathLengthConstraintExceeded: OSStatus = -67611
public let errSecInvalidRoot: OSStatus = -67612
public let errSecCRLExpired: OSStatus = -67613
public let errSecCRLNotValidYet: OSStatus = -67614
public let errSecCRLNotFound: OSStatus = -67615
public let errSecCRLServerDown: OSStatus = -67616
public let errSecCRLBadURI: OSStatus = -67617
public let errSecUnknownCertExtension: OSStatus = -67618
public let errSecUnknownCRLExtension: OSStatus = -67619
public let errSecCRLNotTrusted: OSStatus = -67620
public let errSecCRLPolicyFailed: OSStatus = -67621
public let errSecIDPFailure: OSStatus = -67622
public let errSecSMIMEEmailAddressesNotFound: OSStatus = -67623
public let errSecSMIMEBadExtendedKeyUsage: OSStatus = -67624
public let errSecSMIMEBadKeyUsage: OSStatus = -67625
public let errSecSMIMEKeyUsageNotCritical: OSStatus = -67626
public let errSecSMIMENoEmailAddress: OSStatus = -67627
public let errSecSMIMESubjAltNameNotCritical: OSStatus = -67628
public let errSecSSLBadExtendedKeyUsage: OSStatus = -67629
public let errSecOCSPBadResponse: OSStatus = -67630
public let errSecOCSPBadRequest: OSStatus = -67631
public let errSecOCSPUnavailable: OSStatus = -67632
public let errSecOCSPStatusUnrecognized: OSStatus = -67633
public let errSecEndOfData: OSStatus = -67634
public let errSecIncompleteCertRevocationCheck: OSStatus = -67635
public let errSecNetworkFailure: OSStatus = -67636
public let errSecOCSPNotTrustedToAnchor: OSStatus = -67637
public let errSecRecordModified: OSStatus = -67638
public let errSecOCSPSignatureError: OSStatus = -67639
public let errSecOCSPNoSigner: OSStatus = -67640
public let errSecOCSPResponderMalformedReq: OSStatus = -67641
public let errSecOCSPResponderInternalError: OSStatus = -67642
public let errSecOCSPResponderTryLater: OSStatus = -67643
public let errSecOCSPResponderSignatureRequired: OSStatus = -67644
public let errSecOCSPResponderUnauthorized: OSStatus = -67645
public let errSecOCSPResponseNonceMismatch: OSStatus = -67646
public let errSecCodeSigningBadCertChainLength: OSStatus = -67647
public let errSecCodeSigningNoBasicConstraints: OSStatus = -67648
public let errSecCodeSigningBadPathLengthConstraint: OSStatus = -67649
public let errSecCodeSigningNoExtendedKeyUsage: OSStatus = -67650
public let errSecCodeSigningDevelopment: OSStatus = -67651
public let errSecResourceSignBadCertChainLength: OSStatus = -67652
public let errSecResourceSignBadExtKeyUsage: OSStatus = -67653
public let errSecTrustSettingDeny: OSStatus = -67654
public let errSecInvalidSubjectName: OSStatus = -67655
public let errSecUnknownQualifiedCertStatement: OSStatus = -67656
public let errSecMobileMeRequestQueued: OSStatus = -67657
public let errSecMobileMeRequestRedirected: OSStatus = -67658
public let errSecMobileMeServerError: OSStatus = -67659
public let errSecMobileMeServerNotAvailable: OSStatus = -67660
public let errSecMobileMeServerAlreadyExists: OSStatus = -67661
public let errSecMobileMeServerServiceErr: OSStatus = -67662
public let errSecMobileMeRequestAlreadyPending: OSStatus = -67663
public let errSecMobileMeNoRequestPending: OSStatus = -67664
public let errSecMobileMeCSRVerifyFailure: OSStatus = -67665
public let errSecMobileMeFailedConsistencyCheck: OSStatus = -67666
public let errSecNotInitialized: OSStatus = -67667
public let errSecInvalidHandleUsage: OSStatus = -67668
public let errSecPVCReferentNotFound: OSStatus = -67669
public let errSecFunctionIntegrityFail: OSStatus = -67670
public let errSecInternalError: OSStatus = -67671
public let errSecMemoryError: OSStatus = -67672
public let errSecInvalidData: OSStatus = -67673
public let errSecMDSError: OSStatus = -67674
public let errSecInvalidPointer: OSStatus = -67675
public let errSecSelfCheckFailed: OSStatus = -67676
public let errSecFunctionFailed: OSStatus = -67677
public let errSecModuleManifestVerifyFailed: OSStatus = -67678
public let errSecInvalidGUID: OSStatus = -67679
public let errSecInvalidHandle: OSStatus = -67680
public let errSecInvalidDBList: OSStatus = -67681
public let errSecInvalidPassthroughID: OSStatus = -67682
public let errSecInvalidNetworkAddress: OSStatus = -67683
public let errSecCRLAlreadySigned: OSStatus = -67684
public let errSecInvalidNumberOfFields: OSStatus = -67685
public let errSecVerificationFailure: OSStatus = -67686
public let errSecUnknownTag: OSStatus = -67687
public let errSecInvalidSignature: OSStatus = -67688
public let errSecInvalidName: OSStatus = -67689
public let errSecInvalidCertificateRef: OSStatus = -67690
public let errSecInvalidCertificateGroup: OSStatus = -67691
public let errSecTagNotFound: OSStatus = -67692
public let errSecInvalidQuery: OSStatus = -67693
public let errSecInvalidValue: OSStatus = -67694
public let errSecCallbackFailed: OSStatus = -67695
public let errSecACLDeleteFailed: OSStatus = -67696
public let errSecACLReplaceFailed: OSStatus = -67697
public let errSecACLAddFailed: OSStatus = -67698
public let errSecACLChangeFailed: OSStatus = -67699
public let errSecInvalidAccessCredentials: OSStatus = -67700
public let errSecInvalidRecord: OSStatus = -67701
public let errSecInvalidACL: OSStatus = -67702
public let errSecInvalidSampleValue: OSStatus = -67703
public let errSecIncompatibleVersion: OSStatus = -67704
public let errSecPrivilegeNotGranted: OSStatus = -67705
public let errSecInvalidScope: OSStatus = -67706
public let errSecPVCAlreadyConfigured: OSStatus = -67707
public let errSecInvalidPVC: OSStatus = -67708
public let errSecEMMLoadFailed: OSStatus = -67709
public let errSecEMMUnloadFailed: OSStatus = -67710
public let errSecAddinLoadFailed: OSStatus = -67711
public let errSecInvalidKeyRef: OSStatus = -67712
public let errSecInvalidKeyHierarchy: OSStatus = -67713
public let errSecAddinUnloadFailed: OSStatus = -67714
public let errSecLibraryReferenceNotFound: OSStatus = -67715
public let errSecInvalidAddinFunctionTable: OSStatus = -67716
public let errSecInvalidServiceMask: OSStatus = -67717
public let errSecModuleNotLoaded: OSStatus = -67718
public let errSecInvalidSubServiceID: OSStatus = -67719
public let errSecAttributeNotInContext: OSStatus = -67720
public let errSecModuleManagerInitializeFailed: OSStatus = -67721
public let errSecModuleManagerNotFound: OSStatus = -67722
public let errSecEventNotificationCallbackNotFound: OSStatus = -67723
public let errSecInputLengthError: OSStatus = -67724
public let errSecOutputLengthError: OSStatus = -67725
public let errSecPrivilegeNotSupported: OSStatus = -67726
public let errSecDeviceError: OSStatus = -67727
public let errSecAttachHandleBusy: OSStatus = -67728
public let errSecNotLoggedIn: OSStatus = -67729
public let errSecAlgorithmMismatch: OSStatus = -67730
public let errSecKeyUsageIncorrect: OSStatus = -67731
public let errSecKeyBlobTypeIncorrect: OSStatus = -67732
public let errSecKeyHeaderInconsistent: OSStatus = -67733
public let errSecUnsupportedKeyFormat: OSStatus = -67734
public let errSecUnsupportedKeySize: OSStatus = -67735
public let errSecInvalidKeyUsageMask: OSStatus = -67736
public let errSecUnsupportedKeyUsageMask: OSStatus = -67737
public let errSecInvalidKeyAttributeMask: OSStatus = -67738
public let errSecUnsupportedKeyAttributeMask: OSStatus = -67739
public let errSecInvalidKeyLabel: OSStatus = -67740
public let errSecUnsupportedKeyLabel: OSStatus = -67741
public let errSecInvalidKeyFormat: OSStatus = -67742
public let errSecUnsupportedVectorOfBuffers: OSStatus = -67743
public let errSecInvalidInputVector: OSStatus = -67744
public let errSecInvalidOutputVector: OSStatus = -67745
public let errSecInvalidContext: OSStatus = -67746
public let errSecInvalidAlgorithm: OSStatus = -67747
public let errSecInvalidAttributeKey: OSStatus = -67748
public let errSecMissingAttributeKey: OSStatus = -67749
public let errSecInvalidAttributeInitVector: OSStatus = -67750
public let errSecMissingAttributeInitVector: OSStatus = -67751
public let errSecInvalidAttributeSalt: OSStatus = -67752
public let errSecMissingAttributeSalt: OSStatus = -67753
public let errSecInvalidAttributePadding: OSStatus = -67754
public let errSecMissingAttributePadding: OSStatus = -67755
public let errSecInvalidAttributeRandom: OSStatus = -67756
public let errSecMissingAttributeRandom: OSStatus = -67757
public let errSecInvalidAttributeSeed: OSStatus = -67758
public let errSecMissingAttributeSeed: OSStatus = -67759
public let errSecInvalidAttributePassphrase: OSStatus = -67760
public let errSecMissingAttributePassphrase: OSStatus = -67761
public let errSecInvalidAttributeKeyLength: OSStatus = -67762
public let errSecMissingAttributeKeyLength: OSStatus = -67763
public let errSecInvalidAttributeBlockSize: OSStatus = -67764
public let errSecMissingAttributeBlockSize: OSStatus = -67765
public let errSecInvalidAttributeOutputSize: OSStatus = -67766
public let errSecMissingAttributeOutputSize: OSStatus = -67767
public let errSecInvalidAttributeRounds: OSStatus = -67768
public let errSecMissingAttributeRounds: OSStatus = -67769
public let errSecInvalidAlgorithmParms: OSStatus = -67770
public let errSecMissingAlgorithmParms: OSStatus = -67771
public let errSecInvalidAttributeLabel: OSStatus = -67772
public let errSecMissingAttributeLabel: OSStatus = -67773
public let errSecInvalidAttributeKeyType: OSStatus = -67774
public let errSecMissingAttributeKeyType: OSStatus = -67775
public let errSecInvalidAttributeMode: OSStatus = -67776
public let errSecMissingAttributeMode: OSStatus = -67777
public let errSecInvalidAttributeEffectiveBits: OSStatus = -67778
public let errSecMissingAttributeEffectiveBits: OSStatus = -67779
public let errSecInvalidAttributeStartDate: OSStatus = -67780
public let errSecMissingAttributeStartDate: OSStatus = -67781
public let errSecInvalidAttributeEndDate: OSStatus = -67782
public let errSecMissingAttributeEndDate: OSStatus = -67783
public let errSecInvalidAttributeVersion: OSStatus = -67784
public let errSecMissingAttributeVersion: OSStatus = -67785
public let errSecInvalidAttributePrime: OSStatus = -67786
public let errSecMissingAttributePrime: OSStatus = -67787
public let errSecInvalidAttributeBase: OSStatus = -67788
public let errSecMissingAttributeBase: OSStatus = -67789
public let errSecInvalidAttributeSubprime: OSStatus = -67790
public let errSecMissingAttributeSubprime: OSStatus = -67791
public let errSecInvalidAttributeIterationCount: OSStatus = -67792
public let errSecMissingAttributeIterationCount: OSStatus = -67793
public let errSecInvalidAttributeDLDBHandle: OSStatus = -67794
public let errSecMissingAttributeDLDBHandle: OSStatus = -67795
public let errSecInvalidAttributeAccessCredentials: OSStatus = -67796
public let errSecMissingAttributeAccessCredentials: OSStatus = -67797
public let errSecInvalidAttributePublicKeyFormat: OSStatus = -67798
public let errSecMissingAttributePublicKeyFormat: OSStatus = -67799
public let errSecInvalidAttributePrivateKeyFormat: OSStatus = -67800
public let errSecMissingAttributePrivateKeyFormat: OSStatus = -67801
public let errSecInvalidAttributeSymmetricKeyFormat: OSStatus = -67802
public let errSecMissingAttributeSymmetricKeyFormat: OSStatus = -67803
public let errSecInvalidAttributeWrappedKeyFormat: OSStatus = -67804
public let errSecMissingAttributeWrappedKeyFormat: OSStatus = -67805
public let errSecStagedOperationInProgress: OSStatus = -67806
public let errSecStagedOperationNotStarted: OSStatus = -67807
public let errSecVerifyFailed: OSStatus = -67808
public let errSecQuerySizeUnknown: OSStatus = -67809
public let errSecBlockSizeMismatch: OSStatus = -67810
public let errSecPublicKeyInconsistent: OSStatus = -67811
public let errSecDeviceVerifyFailed: OSStatus = -67812
public let errSecInvalidLoginName: OSStatus = -67813
public let errSecAlreadyLoggedIn: OSStatus = -67814
public let errSecInvalidDigestAlgorithm: OSStatus = -67815
public let errSecInvalidCRLGroup: OSStatus = -67816
public let errSecCertificateCannotOperate: OSStatus = -67817
public let errSecCertificateExpired: OSStatus = -67818
public let errSecCertificateNotValidYet: OSStatus = -67819
public let errSecCertificateRevoked: OSStatus = -67820
public let errSecCertificateSuspended: OSStatus = -67821
public let errSecInsufficientCredentials: OSStatus = -67822
public let errSecInvalidAction: OSStatus = -67823
public let errSecInvalidAuthority: OSStatus = -67824
public let errSecVerifyActionFailed: OSStatus = -67825
public let errSecInvalidCertAuthority: OSStatus = -67826
public let errSecInvalidCRLAuthority: OSStatus = -67827
public let errSecInvalidCRLEncoding: OSStatus = -67828
public let errSecInvalidCRLType: OSStatus = -67829
public let errSecInvalidCRL: OSStatus = -67830
public let errSecInvalidFormType: OSStatus = -67831
public let errSecInvalidID: OSStatus = -67832
public let errSecInvalidIdentifier: OSStatus = -67833
public let errSecInvalidIndex: OSStatus = -67834
public let errSecInvalidPolicyIdentifiers: OSStatus = -67835
public let errSecInvalidTimeString: OSStatus = -67836
public let errSecInvalidReason: OSStatus = -67837
public let errSecInvalidRequestInputs: OSStatus = -67838
public let errSecInvalidResponseVector: OSStatus = -67839
public let errSecInvalidStopOnPolicy: OSStatus = -67840
public let errSecInvalidTuple: OSStatus = -67841
public let errSecMultipleValuesUnsupported: OSStatus = -67842
public let errSecNotTrusted: OSStatus = -67843
public let errSecNoDefaultAuthority: OSStatus = -67844
public let errSecRejectedForm: OSStatus = -67845
public let errSecRequestLost: OSStatus = -67846
public let errSecRequestRejected: OSStatus = -67847
public let errSecUnsupportedAddressType: OSStatus = -67848
public let errSecUnsupportedService: OSStatus = -67849
public let errSecInvalidTupleGroup: OSStatus = -67850
public let errSecInvalidBaseACLs: OSStatus = -67851
public let errSecInvalidTupleCredentials: OSStatus = -67852
public let errSecInvalidEncoding: OSStatus = -67853
public let errSecInvalidValidityPeriod: OSStatus = -67854
public let errSecInvalidRequestor: OSStatus = -67855
public let errSecRequestDescriptor: OSStatus = -67856
public let errSecInvalidBundleInfo: OSStatus = -67857
public let errSecInvalidCRLIndex: OSStatus = -67858
public let errSecNoFieldValues: OSStatus = -67859
public let errSecUnsupportedFieldFormat: OSStatus = -67860
public let errSecUnsupportedIndexInfo: OSStatus = -67861
public let errSecUnsupportedLocality: OSStatus = -67862
public let errSecUnsupportedNumAttributes: OSStatus = -67863
public let errSecUnsupportedNumIndexes: OSStatus = -67864
public let errSecUnsupportedNumRecordTypes: OSStatus = -67865
public let errSecFieldSpecifiedMultiple: OSStatus = -67866
public let errSecIncompatibleFieldFormat: OSStatus = -67867
public let errSecInvalidParsingModule: OSStatus = -67868
public let errSecDatabaseLocked: OSStatus = -67869
public let errSecDatastoreIsOpen: OSStatus = -67870
public let errSecMissingValue: OSStatus = -67871
public let errSecUnsupportedQueryLimits: OSStatus = -67872
public let errSecUnsupportedNumSelectionPreds: OSStatus = -67873
public let errSecUnsupportedOperator: OSStatus = -67874
public let errSecInvalidDBLocation: OSStatus = -67875
public let errSecInvalidAccessRequest: OSStatus = -67876
public let errSecInvalidIndexInfo: OSStatus = -67877
public let errSecInvalidNewOwner: OSStatus = -67878
public let errSecInvalidModifyMode: OSStatus = -67879
public let errSecMissingRequiredExtension: OSStatus = -67880
public let errSecExtendedKeyUsageNotCritical: OSStatus = -67881
public let errSecTimestampMissing: OSStatus = -67882
public let errSecTimestampInvalid: OSStatus = -67883
public let errSecTimestampNotTrusted: OSStatus = -67884
public let errSecTimestampServiceNotAvailable: OSStatus = -67885
public let errSecTimestampBadAlg: OSStatus = -67886
public let errSecTimestampBadRequest: OSStatus = -67887
public let errSecTimestampBadDataFormat: OSStatus = -67888
public let errSecTimestampTimeNotAvailable: OSStatus = -67889
public let errSecTimestampUnacceptedPolicy: OSStatus = -67890
public let errSecTimestampUnacceptedExtension: OSStatus = -67891
public let errSecTimestampAddInfoNotAvailable: OSStatus = -67892
public let errSecTimestampSystemFailure: OSStatus = -67893
public let errSecSigningTimeMissing: OSStatus = -67894
public let errSecTimestampRejection: OSStatus = -67895
public let errSecTimestampWaiting: OSStatus = -67896
public let errSecTimestampRevocationWarning: OSStatus = -67897
public let errSecTimestampRevocationNotification: OSStatus = -67898
public let errSecCertificatePolicyNotAllowed: OSStatus = -67899
public let errSecCertificateNameNotAllowed: OSStatus = -67900
public let errSecCertificateValidityPeriodTooLong: OSStatus = -67901
public let errSecCertificateIsCA: OSStatus = -67902
public let errSecCertificateDuplicateExtension: OSStatus = -67903
public let errSecMissingQualifiedCertStatement: OSStatus = -67904

// Private to Apple's Security framework, listed in the keychain reference (§3.1): Coffer's diagnostics
// can name them, and code that compares against them compiles.

/// `errSecAuthNeeded` (private on Apple platforms): the daemon asks the client to authenticate; apps never see it.
public let errSecAuthNeeded: OSStatus = -25330
/// `errSecInternal` (private on Apple platforms): an internal inconsistency.
public let errSecInternal: OSStatus = -26276
/// `errSecUpgradePending` (private on Apple platforms): a schema migration waits for an unlock.
public let errSecUpgradePending: OSStatus = -34019

/// The Apple name of every status above, for messages and diagnostics.
let securityStatusNames: [OSStatus: String] = [
    errSecSuccess: "errSecSuccess",
    errSecUnimplemented: "errSecUnimplemented",
    errSecDiskFull: "errSecDiskFull",
    errSecIO: "errSecIO",
    errSecOpWr: "errSecOpWr",
    errSecParam: "errSecParam",
    errSecWrPerm: "errSecWrPerm",
    errSecAllocate: "errSecAllocate",
    errSecUserCanceled: "errSecUserCanceled",
    errSecBadReq: "errSecBadReq",
    errSecInternalComponent: "errSecInternalComponent",
    errSecCoreFoundationUnknown: "errSecCoreFoundationUnknown",
    errSecMissingEntitlement: "errSecMissingEntitlement",
    errSecRestrictedAPI: "errSecRestrictedAPI",
    errSecNotAvailable: "errSecNotAvailable",
    errSecReadOnly: "errSecReadOnly",
    errSecAuthFailed: "errSecAuthFailed",
    errSecNoSuchKeychain: "errSecNoSuchKeychain",
    errSecInvalidKeychain: "errSecInvalidKeychain",
    errSecDuplicateKeychain: "errSecDuplicateKeychain",
    errSecDuplicateCallback: "errSecDuplicateCallback",
    errSecInvalidCallback: "errSecInvalidCallback",
    errSecDuplicateItem: "errSecDuplicateItem",
    errSecItemNotFound: "errSecItemNotFound",
    errSecBufferTooSmall: "errSecBufferTooSmall",
    errSecDataTooLarge: "errSecDataTooLarge",
    errSecNoSuchAttr: "errSecNoSuchAttr",
    errSecInvalidItemRef: "errSecInvalidItemRef",
    errSecInvalidSearchRef: "errSecInvalidSearchRef",
    errSecNoSuchClass: "errSecNoSuchClass",
    errSecNoDefaultKeychain: "errSecNoDefaultKeychain",
    errSecInteractionNotAllowed: "errSecInteractionNotAllowed",
    errSecReadOnlyAttr: "errSecReadOnlyAttr",
    errSecWrongSecVersion: "errSecWrongSecVersion",
    errSecKeySizeNotAllowed: "errSecKeySizeNotAllowed",
    errSecNoStorageModule: "errSecNoStorageModule",
    errSecNoCertificateModule: "errSecNoCertificateModule",
    errSecNoPolicyModule: "errSecNoPolicyModule",
    errSecInteractionRequired: "errSecInteractionRequired",
    errSecDataNotAvailable: "errSecDataNotAvailable",
    errSecDataNotModifiable: "errSecDataNotModifiable",
    errSecCreateChainFailed: "errSecCreateChainFailed",
    errSecInvalidPrefsDomain: "errSecInvalidPrefsDomain",
    errSecInDarkWake: "errSecInDarkWake",
    errSecACLNotSimple: "errSecACLNotSimple",
    errSecPolicyNotFound: "errSecPolicyNotFound",
    errSecInvalidTrustSetting: "errSecInvalidTrustSetting",
    errSecNoAccessForItem: "errSecNoAccessForItem",
    errSecInvalidOwnerEdit: "errSecInvalidOwnerEdit",
    errSecTrustNotAvailable: "errSecTrustNotAvailable",
    errSecUnsupportedFormat: "errSecUnsupportedFormat",
    errSecUnknownFormat: "errSecUnknownFormat",
    errSecKeyIsSensitive: "errSecKeyIsSensitive",
    errSecMultiplePrivKeys: "errSecMultiplePrivKeys",
    errSecPassphraseRequired: "errSecPassphraseRequired",
    errSecInvalidPasswordRef: "errSecInvalidPasswordRef",
    errSecInvalidTrustSettings: "errSecInvalidTrustSettings",
    errSecNoTrustSettings: "errSecNoTrustSettings",
    errSecPkcs12VerifyFailure: "errSecPkcs12VerifyFailure",
    errSecNotSigner: "errSecNotSigner",
    errSecDecode: "errSecDecode",
    errSecServiceNotAvailable: "errSecServiceNotAvailable",
    errSecInsufficientClientID: "errSecInsufficientClientID",
    errSecDeviceReset: "errSecDeviceReset",
    errSecDeviceFailed: "errSecDeviceFailed",
    errSecAppleAddAppACLSubject: "errSecAppleAddAppACLSubject",
    errSecApplePublicKeyIncomplete: "errSecApplePublicKeyIncomplete",
    errSecAppleSignatureMismatch: "errSecAppleSignatureMismatch",
    errSecAppleInvalidKeyStartDate: "errSecAppleInvalidKeyStartDate",
    errSecAppleInvalidKeyEndDate: "errSecAppleInvalidKeyEndDate",
    errSecConversionError: "errSecConversionError",
    errSecAppleSSLv2Rollback: "errSecAppleSSLv2Rollback",
    errSecQuotaExceeded: "errSecQuotaExceeded",
    errSecFileTooBig: "errSecFileTooBig",
    errSecInvalidDatabaseBlob: "errSecInvalidDatabaseBlob",
    errSecInvalidKeyBlob: "errSecInvalidKeyBlob",
    errSecIncompatibleDatabaseBlob: "errSecIncompatibleDatabaseBlob",
    errSecIncompatibleKeyBlob: "errSecIncompatibleKeyBlob",
    errSecHostNameMismatch: "errSecHostNameMismatch",
    errSecUnknownCriticalExtensionFlag: "errSecUnknownCriticalExtensionFlag",
    errSecNoBasicConstraints: "errSecNoBasicConstraints",
    errSecNoBasicConstraintsCA: "errSecNoBasicConstraintsCA",
    errSecInvalidAuthorityKeyID: "errSecInvalidAuthorityKeyID",
    errSecInvalidSubjectKeyID: "errSecInvalidSubjectKeyID",
    errSecInvalidKeyUsageForPolicy: "errSecInvalidKeyUsageForPolicy",
    errSecInvalidExtendedKeyUsage: "errSecInvalidExtendedKeyUsage",
    errSecInvalidIDLinkage: "errSecInvalidIDLinkage",
    errSecPathLengthConstraintExceeded: "errSecPathLengthConstraintExceeded",
    errSecInvalidRoot: "errSecInvalidRoot",
    errSecCRLExpired: "errSecCRLExpired",
    errSecCRLNotValidYet: "errSecCRLNotValidYet",
    errSecCRLNotFound: "errSecCRLNotFound",
    errSecCRLServerDown: "errSecCRLServerDown",
    errSecCRLBadURI: "errSecCRLBadURI",
    errSecUnknownCertExtension: "errSecUnknownCertExtension",
    errSecUnknownCRLExtension: "errSecUnknownCRLExtension",
    errSecCRLNotTrusted: "errSecCRLNotTrusted",
    errSecCRLPolicyFailed: "errSecCRLPolicyFailed",
    errSecIDPFailure: "errSecIDPFailure",
    errSecSMIMEEmailAddressesNotFound: "errSecSMIMEEmailAddressesNotFound",
    errSecSMIMEBadExtendedKeyUsage: "errSecSMIMEBadExtendedKeyUsage",
    errSecSMIMEBadKeyUsage: "errSecSMIMEBadKeyUsage",
    errSecSMIMEKeyUsageNotCritical: "errSecSMIMEKeyUsageNotCritical",
    errSecSMIMENoEmailAddress: "errSecSMIMENoEmailAddress",
    errSecSMIMESubjAltNameNotCritical: "errSecSMIMESubjAltNameNotCritical",
    errSecSSLBadExtendedKeyUsage: "errSecSSLBadExtendedKeyUsage",
    errSecOCSPBadResponse: "errSecOCSPBadResponse",
    errSecOCSPBadRequest: "errSecOCSPBadRequest",
    errSecOCSPUnavailable: "errSecOCSPUnavailable",
    errSecOCSPStatusUnrecognized: "errSecOCSPStatusUnrecognized",
    errSecEndOfData: "errSecEndOfData",
    errSecIncompleteCertRevocationCheck: "errSecIncompleteCertRevocationCheck",
    errSecNetworkFailure: "errSecNetworkFailure",
    errSecOCSPNotTrustedToAnchor: "errSecOCSPNotTrustedToAnchor",
    errSecRecordModified: "errSecRecordModified",
    errSecOCSPSignatureError: "errSecOCSPSignatureError",
    errSecOCSPNoSigner: "errSecOCSPNoSigner",
    errSecOCSPResponderMalformedReq: "errSecOCSPResponderMalformedReq",
    errSecOCSPResponderInternalError: "errSecOCSPResponderInternalError",
    errSecOCSPResponderTryLater: "errSecOCSPResponderTryLater",
    errSecOCSPResponderSignatureRequired: "errSecOCSPResponderSignatureRequired",
    errSecOCSPResponderUnauthorized: "errSecOCSPResponderUnauthorized",
    errSecOCSPResponseNonceMismatch: "errSecOCSPResponseNonceMismatch",
    errSecCodeSigningBadCertChainLength: "errSecCodeSigningBadCertChainLength",
    errSecCodeSigningNoBasicConstraints: "errSecCodeSigningNoBasicConstraints",
    errSecCodeSigningBadPathLengthConstraint: "errSecCodeSigningBadPathLengthConstraint",
    errSecCodeSigningNoExtendedKeyUsage: "errSecCodeSigningNoExtendedKeyUsage",
    errSecCodeSigningDevelopment: "errSecCodeSigningDevelopment",
    errSecResourceSignBadCertChainLength: "errSecResourceSignBadCertChainLength",
    errSecResourceSignBadExtKeyUsage: "errSecResourceSignBadExtKeyUsage",
    errSecTrustSettingDeny: "errSecTrustSettingDeny",
    errSecInvalidSubjectName: "errSecInvalidSubjectName",
    errSecUnknownQualifiedCertStatement: "errSecUnknownQualifiedCertStatement",
    errSecMobileMeRequestQueued: "errSecMobileMeRequestQueued",
    errSecMobileMeRequestRedirected: "errSecMobileMeRequestRedirected",
    errSecMobileMeServerError: "errSecMobileMeServerError",
    errSecMobileMeServerNotAvailable: "errSecMobileMeServerNotAvailable",
    errSecMobileMeServerAlreadyExists: "errSecMobileMeServerAlreadyExists",
    errSecMobileMeServerServiceErr: "errSecMobileMeServerServiceErr",
    errSecMobileMeRequestAlreadyPending: "errSecMobileMeRequestAlreadyPending",
    errSecMobileMeNoRequestPending: "errSecMobileMeNoRequestPending",
    errSecMobileMeCSRVerifyFailure: "errSecMobileMeCSRVerifyFailure",
    errSecMobileMeFailedConsistencyCheck: "errSecMobileMeFailedConsistencyCheck",
    errSecNotInitialized: "errSecNotInitialized",
    errSecInvalidHandleUsage: "errSecInvalidHandleUsage",
    errSecPVCReferentNotFound: "errSecPVCReferentNotFound",
    errSecFunctionIntegrityFail: "errSecFunctionIntegrityFail",
    errSecInternalError: "errSecInternalError",
    errSecMemoryError: "errSecMemoryError",
    errSecInvalidData: "errSecInvalidData",
    errSecMDSError: "errSecMDSError",
    errSecInvalidPointer: "errSecInvalidPointer",
    errSecSelfCheckFailed: "errSecSelfCheckFailed",
    errSecFunctionFailed: "errSecFunctionFailed",
    errSecModuleManifestVerifyFailed: "errSecModuleManifestVerifyFailed",
    errSecInvalidGUID: "errSecInvalidGUID",
    errSecInvalidHandle: "errSecInvalidHandle",
    errSecInvalidDBList: "errSecInvalidDBList",
    errSecInvalidPassthroughID: "errSecInvalidPassthroughID",
    errSecInvalidNetworkAddress: "errSecInvalidNetworkAddress",
    errSecCRLAlreadySigned: "errSecCRLAlreadySigned",
    errSecInvalidNumberOfFields: "errSecInvalidNumberOfFields",
    errSecVerificationFailure: "errSecVerificationFailure",
    errSecUnknownTag: "errSecUnknownTag",
    errSecInvalidSignature: "errSecInvalidSignature",
    errSecInvalidName: "errSecInvalidName",
    errSecInvalidCertificateRef: "errSecInvalidCertificateRef",
    errSecInvalidCertificateGroup: "errSecInvalidCertificateGroup",
    errSecTagNotFound: "errSecTagNotFound",
    errSecInvalidQuery: "errSecInvalidQuery",
    errSecInvalidValue: "errSecInvalidValue",
    errSecCallbackFailed: "errSecCallbackFailed",
    errSecACLDeleteFailed: "errSecACLDeleteFailed",
    errSecACLReplaceFailed: "errSecACLReplaceFailed",
    errSecACLAddFailed: "errSecACLAddFailed",
    errSecACLChangeFailed: "errSecACLChangeFailed",
    errSecInvalidAccessCredentials: "errSecInvalidAccessCredentials",
    errSecInvalidRecord: "errSecInvalidRecord",
    errSecInvalidACL: "errSecInvalidACL",
    errSecInvalidSampleValue: "errSecInvalidSampleValue",
    errSecIncompatibleVersion: "errSecIncompatibleVersion",
    errSecPrivilegeNotGranted: "errSecPrivilegeNotGranted",
    errSecInvalidScope: "errSecInvalidScope",
    errSecPVCAlreadyConfigured: "errSecPVCAlreadyConfigured",
    errSecInvalidPVC: "errSecInvalidPVC",
    errSecEMMLoadFailed: "errSecEMMLoadFailed",
    errSecEMMUnloadFailed: "errSecEMMUnloadFailed",
    errSecAddinLoadFailed: "errSecAddinLoadFailed",
    errSecInvalidKeyRef: "errSecInvalidKeyRef",
    errSecInvalidKeyHierarchy: "errSecInvalidKeyHierarchy",
    errSecAddinUnloadFailed: "errSecAddinUnloadFailed",
    errSecLibraryReferenceNotFound: "errSecLibraryReferenceNotFound",
    errSecInvalidAddinFunctionTable: "errSecInvalidAddinFunctionTable",
    errSecInvalidServiceMask: "errSecInvalidServiceMask",
    errSecModuleNotLoaded: "errSecModuleNotLoaded",
    errSecInvalidSubServiceID: "errSecInvalidSubServiceID",
    errSecAttributeNotInContext: "errSecAttributeNotInContext",
    errSecModuleManagerInitializeFailed: "errSecModuleManagerInitializeFailed",
    errSecModuleManagerNotFound: "errSecModuleManagerNotFound",
    errSecEventNotificationCallbackNotFound: "errSecEventNotificationCallbackNotFound",
    errSecInputLengthError: "errSecInputLengthError",
    errSecOutputLengthError: "errSecOutputLengthError",
    errSecPrivilegeNotSupported: "errSecPrivilegeNotSupported",
    errSecDeviceError: "errSecDeviceError",
    errSecAttachHandleBusy: "errSecAttachHandleBusy",
    errSecNotLoggedIn: "errSecNotLoggedIn",
    errSecAlgorithmMismatch: "errSecAlgorithmMismatch",
    errSecKeyUsageIncorrect: "errSecKeyUsageIncorrect",
    errSecKeyBlobTypeIncorrect: "errSecKeyBlobTypeIncorrect",
    errSecKeyHeaderInconsistent: "errSecKeyHeaderInconsistent",
    errSecUnsupportedKeyFormat: "errSecUnsupportedKeyFormat",
    errSecUnsupportedKeySize: "errSecUnsupportedKeySize",
    errSecInvalidKeyUsageMask: "errSecInvalidKeyUsageMask",
    errSecUnsupportedKeyUsageMask: "errSecUnsupportedKeyUsageMask",
    errSecInvalidKeyAttributeMask: "errSecInvalidKeyAttributeMask",
    errSecUnsupportedKeyAttributeMask: "errSecUnsupportedKeyAttributeMask",
    errSecInvalidKeyLabel: "errSecInvalidKeyLabel",
    errSecUnsupportedKeyLabel: "errSecUnsupportedKeyLabel",
    errSecInvalidKeyFormat: "errSecInvalidKeyFormat",
    errSecUnsupportedVectorOfBuffers: "errSecUnsupportedVectorOfBuffers",
    errSecInvalidInputVector: "errSecInvalidInputVector",
    errSecInvalidOutputVector: "errSecInvalidOutputVector",
    errSecInvalidContext: "errSecInvalidContext",
    errSecInvalidAlgorithm: "errSecInvalidAlgorithm",
    errSecInvalidAttributeKey: "errSecInvalidAttributeKey",
    errSecMissingAttributeKey: "errSecMissingAttributeKey",
    errSecInvalidAttributeInitVector: "errSecInvalidAttributeInitVector",
    errSecMissingAttributeInitVector: "errSecMissingAttributeInitVector",
    errSecInvalidAttributeSalt: "errSecInvalidAttributeSalt",
    errSecMissingAttributeSalt: "errSecMissingAttributeSalt",
    errSecInvalidAttributePadding: "errSecInvalidAttributePadding",
    errSecMissingAttributePadding: "errSecMissingAttributePadding",
    errSecInvalidAttributeRandom: "errSecInvalidAttributeRandom",
    errSecMissingAttributeRandom: "errSecMissingAttributeRandom",
    errSecInvalidAttributeSeed: "errSecInvalidAttributeSeed",
    errSecMissingAttributeSeed: "errSecMissingAttributeSeed",
    errSecInvalidAttributePassphrase: "errSecInvalidAttributePassphrase",
    errSecMissingAttributePassphrase: "errSecMissingAttributePassphrase",
    errSecInvalidAttributeKeyLength: "errSecInvalidAttributeKeyLength",
    errSecMissingAttributeKeyLength: "errSecMissingAttributeKeyLength",
    errSecInvalidAttributeBlockSize: "errSecInvalidAttributeBlockSize",
    errSecMissingAttributeBlockSize: "errSecMissingAttributeBlockSize",
    errSecInvalidAttributeOutputSize: "errSecInvalidAttributeOutputSize",
    errSecMissingAttributeOutputSize: "errSecMissingAttributeOutputSize",
    errSecInvalidAttributeRounds: "errSecInvalidAttributeRounds",
    errSecMissingAttributeRounds: "errSecMissingAttributeRounds",
    errSecInvalidAlgorithmParms: "errSecInvalidAlgorithmParms",
    errSecMissingAlgorithmParms: "errSecMissingAlgorithmParms",
    errSecInvalidAttributeLabel: "errSecInvalidAttributeLabel",
    errSecMissingAttributeLabel: "errSecMissingAttributeLabel",
    errSecInvalidAttributeKeyType: "errSecInvalidAttributeKeyType",
    errSecMissingAttributeKeyType: "errSecMissingAttributeKeyType",
    errSecInvalidAttributeMode: "errSecInvalidAttributeMode",
    errSecMissingAttributeMode: "errSecMissingAttributeMode",
    errSecInvalidAttributeEffectiveBits: "errSecInvalidAttributeEffectiveBits",
    errSecMissingAttributeEffectiveBits: "errSecMissingAttributeEffectiveBits",
    errSecInvalidAttributeStartDate: "errSecInvalidAttributeStartDate",
    errSecMissingAttributeStartDate: "errSecMissingAttributeStartDate",
    errSecInvalidAttributeEndDate: "errSecInvalidAttributeEndDate",
    errSecMissingAttributeEndDate: "errSecMissingAttributeEndDate",
    errSecInvalidAttributeVersion: "errSecInvalidAttributeVersion",
    errSecMissingAttributeVersion: "errSecMissingAttributeVersion",
    errSecInvalidAttributePrime: "errSecInvalidAttributePrime",
    errSecMissingAttributePrime: "errSecMissingAttributePrime",
    errSecInvalidAttributeBase: "errSecInvalidAttributeBase",
    errSecMissingAttributeBase: "errSecMissingAttributeBase",
    errSecInvalidAttributeSubprime: "errSecInvalidAttributeSubprime",
    errSecMissingAttributeSubprime: "errSecMissingAttributeSubprime",
    errSecInvalidAttributeIterationCount: "errSecInvalidAttributeIterationCount",
    errSecMissingAttributeIterationCount: "errSecMissingAttributeIterationCount",
    errSecInvalidAttributeDLDBHandle: "errSecInvalidAttributeDLDBHandle",
    errSecMissingAttributeDLDBHandle: "errSecMissingAttributeDLDBHandle",
    errSecInvalidAttributeAccessCredentials: "errSecInvalidAttributeAccessCredentials",
    errSecMissingAttributeAccessCredentials: "errSecMissingAttributeAccessCredentials",
    errSecInvalidAttributePublicKeyFormat: "errSecInvalidAttributePublicKeyFormat",
    errSecMissingAttributePublicKeyFormat: "errSecMissingAttributePublicKeyFormat",
    errSecInvalidAttributePrivateKeyFormat: "errSecInvalidAttributePrivateKeyFormat",
    errSecMissingAttributePrivateKeyFormat: "errSecMissingAttributePrivateKeyFormat",
    errSecInvalidAttributeSymmetricKeyFormat: "errSecInvalidAttributeSymmetricKeyFormat",
    errSecMissingAttributeSymmetricKeyFormat: "errSecMissingAttributeSymmetricKeyFormat",
    errSecInvalidAttributeWrappedKeyFormat: "errSecInvalidAttributeWrappedKeyFormat",
    errSecMissingAttributeWrappedKeyFormat: "errSecMissingAttributeWrappedKeyFormat",
    errSecStagedOperationInProgress: "errSecStagedOperationInProgress",
    errSecStagedOperationNotStarted: "errSecStagedOperationNotStarted",
    errSecVerifyFailed: "errSecVerifyFailed",
    errSecQuerySizeUnknown: "errSecQuerySizeUnknown",
    errSecBlockSizeMismatch: "errSecBlockSizeMismatch",
    errSecPublicKeyInconsistent: "errSecPublicKeyInconsistent",
    errSecDeviceVerifyFailed: "errSecDeviceVerifyFailed",
    errSecInvalidLoginName: "errSecInvalidLoginName",
    errSecAlreadyLoggedIn: "errSecAlreadyLoggedIn",
    errSecInvalidDigestAlgorithm: "errSecInvalidDigestAlgorithm",
    errSecInvalidCRLGroup: "errSecInvalidCRLGroup",
    errSecCertificateCannotOperate: "errSecCertificateCannotOperate",
    errSecCertificateExpired: "errSecCertificateExpired",
    errSecCertificateNotValidYet: "errSecCertificateNotValidYet",
    errSecCertificateRevoked: "errSecCertificateRevoked",
    errSecCertificateSuspended: "errSecCertificateSuspended",
    errSecInsufficientCredentials: "errSecInsufficientCredentials",
    errSecInvalidAction: "errSecInvalidAction",
    errSecInvalidAuthority: "errSecInvalidAuthority",
    errSecVerifyActionFailed: "errSecVerifyActionFailed",
    errSecInvalidCertAuthority: "errSecInvalidCertAuthority",
    errSecInvalidCRLAuthority: "errSecInvalidCRLAuthority",
    errSecInvalidCRLEncoding: "errSecInvalidCRLEncoding",
    errSecInvalidCRLType: "errSecInvalidCRLType",
    errSecInvalidCRL: "errSecInvalidCRL",
    errSecInvalidFormType: "errSecInvalidFormType",
    errSecInvalidID: "errSecInvalidID",
    errSecInvalidIdentifier: "errSecInvalidIdentifier",
    errSecInvalidIndex: "errSecInvalidIndex",
    errSecInvalidPolicyIdentifiers: "errSecInvalidPolicyIdentifiers",
    errSecInvalidTimeString: "errSecInvalidTimeString",
    errSecInvalidReason: "errSecInvalidReason",
    errSecInvalidRequestInputs: "errSecInvalidRequestInputs",
    errSecInvalidResponseVector: "errSecInvalidResponseVector",
    errSecInvalidStopOnPolicy: "errSecInvalidStopOnPolicy",
    errSecInvalidTuple: "errSecInvalidTuple",
    errSecMultipleValuesUnsupported: "errSecMultipleValuesUnsupported",
    errSecNotTrusted: "errSecNotTrusted",
    errSecNoDefaultAuthority: "errSecNoDefaultAuthority",
    errSecRejectedForm: "errSecRejectedForm",
    errSecRequestLost: "errSecRequestLost",
    errSecRequestRejected: "errSecRequestRejected",
    errSecUnsupportedAddressType: "errSecUnsupportedAddressType",
    errSecUnsupportedService: "errSecUnsupportedService",
    errSecInvalidTupleGroup: "errSecInvalidTupleGroup",
    errSecInvalidBaseACLs: "errSecInvalidBaseACLs",
    errSecInvalidTupleCredentials: "errSecInvalidTupleCredentials",
    errSecInvalidEncoding: "errSecInvalidEncoding",
    errSecInvalidValidityPeriod: "errSecInvalidValidityPeriod",
    errSecInvalidRequestor: "errSecInvalidRequestor",
    errSecRequestDescriptor: "errSecRequestDescriptor",
    errSecInvalidBundleInfo: "errSecInvalidBundleInfo",
    errSecInvalidCRLIndex: "errSecInvalidCRLIndex",
    errSecNoFieldValues: "errSecNoFieldValues",
    errSecUnsupportedFieldFormat: "errSecUnsupportedFieldFormat",
    errSecUnsupportedIndexInfo: "errSecUnsupportedIndexInfo",
    errSecUnsupportedLocality: "errSecUnsupportedLocality",
    errSecUnsupportedNumAttributes: "errSecUnsupportedNumAttributes",
    errSecUnsupportedNumIndexes: "errSecUnsupportedNumIndexes",
    errSecUnsupportedNumRecordTypes: "errSecUnsupportedNumRecordTypes",
    errSecFieldSpecifiedMultiple: "errSecFieldSpecifiedMultiple",
    errSecIncompatibleFieldFormat: "errSecIncompatibleFieldFormat",
    errSecInvalidParsingModule: "errSecInvalidParsingModule",
    errSecDatabaseLocked: "errSecDatabaseLocked",
    errSecDatastoreIsOpen: "errSecDatastoreIsOpen",
    errSecMissingValue: "errSecMissingValue",
    errSecUnsupportedQueryLimits: "errSecUnsupportedQueryLimits",
    errSecUnsupportedNumSelectionPreds: "errSecUnsupportedNumSelectionPreds",
    errSecUnsupportedOperator: "errSecUnsupportedOperator",
    errSecInvalidDBLocation: "errSecInvalidDBLocation",
    errSecInvalidAccessRequest: "errSecInvalidAccessRequest",
    errSecInvalidIndexInfo: "errSecInvalidIndexInfo",
    errSecInvalidNewOwner: "errSecInvalidNewOwner",
    errSecInvalidModifyMode: "errSecInvalidModifyMode",
    errSecMissingRequiredExtension: "errSecMissingRequiredExtension",
    errSecExtendedKeyUsageNotCritical: "errSecExtendedKeyUsageNotCritical",
    errSecTimestampMissing: "errSecTimestampMissing",
    errSecTimestampInvalid: "errSecTimestampInvalid",
    errSecTimestampNotTrusted: "errSecTimestampNotTrusted",
    errSecTimestampServiceNotAvailable: "errSecTimestampServiceNotAvailable",
    errSecTimestampBadAlg: "errSecTimestampBadAlg",
    errSecTimestampBadRequest: "errSecTimestampBadRequest",
    errSecTimestampBadDataFormat: "errSecTimestampBadDataFormat",
    errSecTimestampTimeNotAvailable: "errSecTimestampTimeNotAvailable",
    errSecTimestampUnacceptedPolicy: "errSecTimestampUnacceptedPolicy",
    errSecTimestampUnacceptedExtension: "errSecTimestampUnacceptedExtension",
    errSecTimestampAddInfoNotAvailable: "errSecTimestampAddInfoNotAvailable",
    errSecTimestampSystemFailure: "errSecTimestampSystemFailure",
    errSecSigningTimeMissing: "errSecSigningTimeMissing",
    errSecTimestampRejection: "errSecTimestampRejection",
    errSecTimestampWaiting: "errSecTimestampWaiting",
    errSecTimestampRevocationWarning: "errSecTimestampRevocationWarning",
    errSecTimestampRevocationNotification: "errSecTimestampRevocationNotification",
    errSecCertificatePolicyNotAllowed: "errSecCertificatePolicyNotAllowed",
    errSecCertificateNameNotAllowed: "errSecCertificateNameNotAllowed",
    errSecCertificateValidityPeriodTooLong: "errSecCertificateValidityPeriodTooLong",
    errSecCertificateIsCA: "errSecCertificateIsCA",
    errSecCertificateDuplicateExtension: "errSecCertificateDuplicateExtension",
    errSecMissingQualifiedCertStatement: "errSecMissingQualifiedCertStatement",
    errSecAuthNeeded: "errSecAuthNeeded",
    errSecInternal: "errSecInternal",
    errSecUpgradePending: "errSecUpgradePending",
]
