/// A keychain result code: Apple's `OSStatus` value, its Apple name, and an explanation for people.
///
/// Code compares ``code``; people read ``name`` and ``explanation``. The values are Apple's, so a
/// status can cross into the `Security` module or the daemon protocol as a plain `Int32`.
public struct KeychainStatus: Error, Sendable, Hashable, CustomStringConvertible {
    /// Apple's `OSStatus` value.
    public let code: Int32

    /// Creates a status from an `OSStatus` value; unknown values keep a generic name.
    public init(code: Int32) { self.code = code }

    /// Apple's constant name, such as `errSecItemNotFound`, or `OSStatus N` for a value this catalogue does not know.
    public var name: String { Self.catalogue[code]?.name ?? "OSStatus \(code)" }

    /// What the status means and, where it helps, what to do about it.
    public var explanation: String { Self.catalogue[code]?.explanation ?? "Unknown status." }

    /// Whether this is ``success``.
    public var isSuccess: Bool { code == 0 }

    public var description: String { "\(name) (\(code)): \(explanation)" }
}

extension KeychainStatus {
    /// `errSecSuccess` (0).
    public static let success = KeychainStatus(code: 0)
    /// `errSecUnimplemented` (-4).
    public static let unimplemented = KeychainStatus(code: -4)
    /// `errSecDiskFull` (-34): the daemon refuses a write when the caller's storage quota is used up or
    /// the file system is below its free-space reserve.
    public static let diskFull = KeychainStatus(code: -34)
    /// `errSecIO` (-36).
    public static let io = KeychainStatus(code: -36)
    /// `errSecParam` (-50).
    public static let param = KeychainStatus(code: -50)
    /// `errSecAllocate` (-108).
    public static let allocate = KeychainStatus(code: -108)
    /// `errSecUserCanceled` (-128).
    public static let userCanceled = KeychainStatus(code: -128)
    /// `errSecBadReq` (-909).
    public static let badRequest = KeychainStatus(code: -909)
    /// `errSecNotAvailable` (-25291).
    public static let notAvailable = KeychainStatus(code: -25291)
    /// `errSecReadOnly` (-25292).
    public static let readOnly = KeychainStatus(code: -25292)
    /// `errSecAuthFailed` (-25293).
    public static let authFailed = KeychainStatus(code: -25293)
    /// `errSecNoSuchKeychain` (-25294).
    public static let noSuchKeychain = KeychainStatus(code: -25294)
    /// `errSecDuplicateItem` (-25299).
    public static let duplicateItem = KeychainStatus(code: -25299)
    /// `errSecItemNotFound` (-25300).
    public static let itemNotFound = KeychainStatus(code: -25300)
    /// `errSecNoSuchAttr` (-25303).
    public static let noSuchAttribute = KeychainStatus(code: -25303)
    /// `errSecNoSuchClass` (-25306).
    public static let noSuchClass = KeychainStatus(code: -25306)
    /// `errSecInteractionNotAllowed` (-25308).
    public static let interactionNotAllowed = KeychainStatus(code: -25308)
    /// `errSecAuthNeeded` (-25330), internal between daemon and client.
    public static let authNeeded = KeychainStatus(code: -25330)
    /// `errSecDecode` (-26275).
    public static let decode = KeychainStatus(code: -26275)
    /// `errSecInternal` (-26276).
    public static let `internal` = KeychainStatus(code: -26276)
    /// `errSecMissingEntitlement` (-34018).
    public static let missingEntitlement = KeychainStatus(code: -34018)
    /// `errSecUpgradePending` (-34019).
    public static let upgradePending = KeychainStatus(code: -34019)
    /// `errSecRestrictedAPI` (-34020).
    public static let restrictedAPI = KeychainStatus(code: -34020)
    /// `errSecInvalidOwnerEdit` (-25244).
    public static let invalidOwnerEdit = KeychainStatus(code: -25244)

    /// Every status this catalogue names.
    public static var allKnown: [KeychainStatus] { catalogue.keys.sorted(by: >).map(KeychainStatus.init(code:)) }

    private static let catalogue: [Int32: (name: String, explanation: String)] = [
        0: ("errSecSuccess", "No error."),
        -4: ("errSecUnimplemented", "The function or operation is not implemented for this kind of item."),
        -34: ("errSecDiskFull", "The disk is full: the keychain's storage quota is used up, or the file system is nearly full."),
        -36: ("errSecIO", "An input/output error occurred in the keychain database."),
        -50: ("errSecParam", "One or more parameters passed to the function are not valid."),
        -108: ("errSecAllocate", "Memory could not be allocated."),
        -128: ("errSecUserCanceled", "The user cancelled the operation."),
        -909: ("errSecBadReq", "The request was not valid."),
        -25244: ("errSecInvalidOwnerEdit", "The owner of this item cannot be changed."),
        -25291: ("errSecNotAvailable", "The keychain is not available: its files, its daemon or the needed class key cannot be used."),
        -25292: ("errSecReadOnly", "This keychain cannot be modified: its folder or files are read-only for this process."),
        -25293: ("errSecAuthFailed", "Authentication failed: the passcode or password is not correct."),
        -25294: ("errSecNoSuchKeychain", "The keychain does not exist."),
        -25299: ("errSecDuplicateItem", "An item with the same primary key already exists; update it or delete it first."),
        -25300: ("errSecItemNotFound", "No item matched the query."),
        -25303: ("errSecNoSuchAttr", "An attribute in the query does not exist for this item class."),
        -25306: ("errSecNoSuchClass", "The item class is unknown or does not match the persistent reference."),
        -25308: ("errSecInteractionNotAllowed", "The keychain is locked (or not yet unlocked since it started); unlock it and try again."),
        -25330: ("errSecAuthNeeded", "Authentication is needed to use this item."),
        -26275: ("errSecDecode", "Stored data could not be decoded or failed its integrity check."),
        -26276: ("errSecInternal", "An internal error occurred."),
        -34018: ("errSecMissingEntitlement", "The caller is not entitled to this keychain access group."),
        -34019: ("errSecUpgradePending", "The keychain database must be upgraded while unlocked."),
        -34020: ("errSecRestrictedAPI", "This operation is restricted for the caller."),
        // Trust evaluation (SecTrustEvaluateWithError).
        -25318: ("errSecCreateChainFailed", "No chain to a trusted anchor could be built: the issuer of a certificate was not found."),
        -67602: ("errSecHostNameMismatch", "The certificate's subject alternative names do not include the host name the policy asks for."),
        -67609: ("errSecInvalidExtendedKeyUsage", "The certificate's extended key usage does not allow the policy's purpose."),
        -67690: ("errSecInvalidCertificateRef", "The certificate chain breaks a rule of RFC 5280."),
        -67735: ("errSecUnsupportedKeySize", "A certificate's public key is of a type or size that cannot be used."),
        -67818: ("errSecCertificateExpired", "A certificate is not valid at the verify date: it has expired or is not yet valid."),
        -67843: ("errSecNotTrusted", "The chain ends at a certificate that is not a trusted anchor."),
    ]
}
