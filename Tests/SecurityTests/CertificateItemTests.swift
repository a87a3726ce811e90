import CofferTestSupport
import CryptoKit
import Foundation
import KeychainModel
@_spi(Testing) import Security
import Testing

/// `kSecClassCertificate` items through Apple's four functions, added by reference (`kSecValueRef` = a
/// `SecCertificate` openssl made) and by data with explicit attributes (reference §1.3.3, §1.4, §1.5, §7.3); on
/// both transports.
@Suite(.timeLimit(.minutes(10))) struct CertificateItemTests {
    private static func certificate(_ der: Data) throws -> SecCertificate {
        try #require(SecCertificateCreateWithData(nil, der as CFData))
    }

    private static func certificates(_ extra: [String: Any]) -> [String: Any] {
        [kSecClass as String: kSecClassCertificate].merging(extra) { _, new in new }
    }

    private static func add(_ item: [String: Any]) -> OSStatus { SecItemAdd(item as CFDictionary, nil) }

    private static func copy(_ query: [String: Any]) -> (OSStatus, CFTypeRef?) {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result)
    }

    private static func attributes(_ query: [String: Any]) -> [String: Any]? {
        copy(query.merging([kSecReturnAttributes as String: true]) { _, new in new }).1 as? [String: Any]
    }

    /// A fresh keychain whose caller may use two access groups, the second `group.other` (through the daemon, this
    /// process registered with both; embedded, every group is the caller's).
    private static func withTwoGroups(_ transport: Transport, _ body: () throws -> Void) throws {
        guard transport == .daemon else { return try withFreshKeychain(transport: transport, body) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-certs-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let daemon = try InProcessDaemon(folder: KeychainFolder(url: folder), groups: ["TEST.certificates", "group.other"])
        try withExtendedLifetime(daemon) { try SecurityTesting.withKeychain(socket: daemon.socketPath, body) }
    }

    /// The content of a DER `SEQUENCE` (its tag and length dropped).
    private static func content(ofSequence sequence: Data) -> Data {
        let bytes = [UInt8](sequence)
        let header = bytes[1] < 0x80 ? 2 : 2 + Int(bytes[1] & 0x7F)
        return Data(bytes[header...])
    }

    /// §7.3, §1.5: a certificate added by reference has Apple's derived attributes, its subject summary as
    /// label and `dk` as protection; the same certificate again is a duplicate (§1.4), but not in another group.
    @Test(arguments: Transport.allCases) func aCertificateAddedByReferenceHasApplesAttributes(transport: Transport) throws {
        let made = try OpenSSLCertificates.shared()
        let leaf = try Self.certificate(made.leaf.der)
        try Self.withTwoGroups(transport) {
            #expect(Self.add([kSecValueRef as String: leaf]) == errSecSuccess)
            let stored = try #require(Self.attributes(Self.certificates([kSecAttrLabel as String: "Coffer Leaf, Coffer Leaf Alt"])))
            #expect(stored[kSecAttrCertificateType as String] as? Int == 3)
            #expect(stored[kSecAttrCertificateEncoding as String] as? Int == 3)
            let issuer = try #require(SecCertificateCopyNormalizedIssuerSequence(leaf) as Data?)
            let subject = try #require(SecCertificateCopyNormalizedSubjectSequence(leaf) as Data?)
            #expect(stored[kSecAttrIssuer as String] as? Data == Self.content(ofSequence: issuer))
            #expect(stored[kSecAttrSubject as String] as? Data == Self.content(ofSequence: subject))
            #expect((stored[kSecAttrIssuer as String] as? Data).map { String(decoding: $0, as: UTF8.self) }?.contains("COFFER INTERMEDIATE") == true)
            // 0xF1E2D3C4B5A69788 has its top bit set: the INTEGER's contents keep their leading zero.
            let serial = Data([0x00, 0xF1, 0xE2, 0xD3, 0xC4, 0xB5, 0xA6, 0x97, 0x88])
            #expect(stored[kSecAttrSerialNumber as String] as? Data == serial)
            #expect(SecCertificateCopySerialNumberData(leaf, nil) as Data? == serial)
            // pkhh: SHA-1 of the key's bits, the application label of the certificate's public key.
            let key = try #require(SecCertificateCopyKey(leaf))
            let bits = try #require(SecKeyCopyExternalRepresentation(key, nil) as Data?)
            #expect(stored[kSecAttrPublicKeyHash as String] as? Data == Data(Insecure.SHA1.hash(data: bits)))
            let keyLabel = (SecKeyCopyAttributes(key) as? [String: Any])?[kSecAttrApplicationLabel as String] as? Data
            #expect(stored[kSecAttrPublicKeyHash as String] as? Data == keyLabel)
            #expect(stored[kSecAttrLabel as String] as? String == SecCertificateCopySubjectSummary(leaf) as String?)
            #expect(stored[kSecAttrAccessible as String] as? String == kSecAttrAccessibleAlways as String)
            #expect(stored[kSecAttrSubjectKeyID as String] == nil || stored[kSecAttrSubjectKeyID as String] is Data)
            #expect(stored[kSecValueData as String] == nil)

            #expect(Self.add([kSecValueRef as String: leaf]) == errSecDuplicateItem)
            #expect(Self.add([kSecValueRef as String: leaf, kSecAttrLabel as String: "other label"]) == errSecDuplicateItem)
            #expect(Self.add([kSecValueRef as String: leaf, kSecAttrAccessGroup as String: "group.other"]) == errSecSuccess)
            let (status, all) = Self.copy(Self.certificates([kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true]))
            #expect(status == errSecSuccess)
            #expect((all as? [[String: Any]])?.count == 2)
        }
    }

    /// §7.3: the subject key identifier is the extension's key identifier; openssl's `hash` method makes it the
    /// SHA-1 of the key's bits, so it equals `pkhh`. A caller's own attributes win over the reference's.
    @Test(arguments: Transport.allCases) func subjectKeyIDAndCallerAttributesWin(transport: Transport) throws {
        let made = try OpenSSLCertificates.shared()
        let intermediate = try Self.certificate(made.intermediate.der)
        try withFreshKeychain(transport: transport) {
            #expect(
                Self.add([
                    kSecValueRef as String: intermediate, kSecAttrLabel as String: "Mine",
                    kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked,
                ]) == errSecSuccess)
            let stored = try #require(Self.attributes(Self.certificates([kSecAttrLabel as String: "Mine"])))
            let skid = try #require(stored[kSecAttrSubjectKeyID as String] as? Data)
            #expect(skid.count == 20)
            #expect(skid == stored[kSecAttrPublicKeyHash as String] as? Data)
            #expect(stored[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlocked as String)
            #expect(Self.attributes(Self.certificates([kSecAttrSubjectKeyID as String: skid])) != nil)
        }
    }

    /// Finds by issuer and serial, by label, by a full DER issuer (normalized by the client as Apple's does), by
    /// reference; `kSecReturnRef` answers a `SecCertificate` equal to the one added, alone, under `v_Ref` and in
    /// arrays; the label changes; the item is deleted by reference.
    @Test(arguments: Transport.allCases) func certificatesAreFoundUpdatedAndDeleted(transport: Transport) throws {
        let made = try OpenSSLCertificates.shared()
        let mixed = try Self.certificate(made.mixedCase.der)
        try withFreshKeychain(transport: transport) {
            #expect(Self.add([kSecValueRef as String: mixed]) == errSecSuccess)
            let serial = Data([0x30, 0x39])
            // The issuer as the certificate encodes it: mixed case and blanks, which the client normalizes.
            let rawIssuer = DERBytes.name([
                [(DERBytes.commonName, 0x13, "  Mixed Case  Name ")], [(DERBytes.organization, 0x13, "Org")],
            ])
            let normalized = Self.content(ofSequence: try #require(SecCertificateCopyNormalizedIssuerSequence(mixed) as Data?))
            #expect(Self.content(ofSequence: rawIssuer) != normalized)
            for issuer in [normalized, rawIssuer] {
                let (status, found) = Self.copy(
                    Self.certificates([
                        kSecAttrIssuer as String: issuer, kSecAttrSerialNumber as String: serial, kSecReturnRef as String: true,
                    ]))
                #expect(status == errSecSuccess)
                let certificate = try #require(found as? SecCertificate)
                #expect(certificate == mixed)
                #expect(CFGetTypeID(certificate) == SecCertificateGetTypeID())
            }
            #expect(
                Self.copy(Self.certificates([kSecAttrIssuer as String: normalized, kSecAttrSerialNumber as String: Data([0x30])])).0
                    == errSecItemNotFound)
            // By label (the subject summary), with Ref and attributes: the certificate under v_Ref.
            let (labelStatus, labelled) = Self.copy(
                Self.certificates([
                    kSecAttrLabel as String: SecCertificateCopySubjectSummary(mixed) as String? ?? "",
                    kSecReturnRef as String: true, kSecReturnAttributes as String: true,
                ]))
            #expect(labelStatus == errSecSuccess)
            let dictionary = try #require(labelled as? [String: Any])
            #expect(dictionary[kSecValueRef as String] as? SecCertificate == mixed)
            #expect(dictionary[kSecAttrSerialNumber as String] as? Data == serial)
            let (arrayStatus, array) = Self.copy(Self.certificates([kSecReturnRef as String: true, kSecMatchLimit as String: kSecMatchLimitAll]))
            #expect(arrayStatus == errSecSuccess)
            #expect((array as? [SecCertificate]) == [mixed])
            // By reference: the certificate's attributes and data become the filters.
            #expect(Self.copy([kSecValueRef as String: mixed]).0 == errSecSuccess)

            #expect(
                SecItemUpdate(
                    Self.certificates([kSecAttrSerialNumber as String: serial]) as CFDictionary,
                    [kSecAttrLabel as String: "Renamed"] as CFDictionary) == errSecSuccess)
            #expect(Self.attributes(Self.certificates([kSecAttrLabel as String: "Renamed"]))?[kSecAttrIssuer as String] as? Data == normalized)
            #expect(SecItemDelete([kSecValueRef as String: mixed] as CFDictionary) == errSecSuccess)
            #expect(Self.copy(Self.certificates([:])).0 == errSecItemNotFound)
        }
    }

    /// A certificate added by its data with explicit attributes, as code that never made a `SecCertificate`
    /// does: its attributes are kept as given, `dk` is the default protection, and `kSecReturnRef` still answers
    /// the `SecCertificate` its data makes.
    @Test(arguments: Transport.allCases) func aCertificateAddedByDataWithExplicitAttributes(transport: Transport) throws {
        let made = try OpenSSLCertificates.shared()
        let root = try Self.certificate(made.root.der)
        try withFreshKeychain(transport: transport) {
            let serial = Data([0x01])
            let issuer = Self.content(ofSequence: try #require(SecCertificateCopyNormalizedIssuerSequence(root) as Data?))
            let item = Self.certificates([
                kSecValueData as String: made.root.der, kSecAttrCertificateType as String: 3, kSecAttrIssuer as String: issuer,
                kSecAttrSerialNumber as String: serial, kSecAttrLabel as String: "Root by data",
            ])
            #expect(Self.add(item) == errSecSuccess)
            #expect(Self.add(item) == errSecDuplicateItem)
            let stored = try #require(Self.attributes(Self.certificates([kSecAttrLabel as String: "Root by data"])))
            #expect(stored[kSecAttrAccessible as String] as? String == kSecAttrAccessibleAlways as String)
            #expect(stored[kSecAttrSerialNumber as String] as? Data == serial)
            #expect(stored[kSecAttrPublicKeyHash as String] == nil)
            let (status, found) = Self.copy(Self.certificates([kSecAttrSerialNumber as String: serial, kSecReturnRef as String: true]))
            #expect(status == errSecSuccess)
            #expect(found as? SecCertificate == root)
            // The same certificate by reference has the same uniqueness key: a duplicate.
            #expect(Self.add([kSecValueRef as String: root]) == errSecDuplicateItem)
        }
    }
}
