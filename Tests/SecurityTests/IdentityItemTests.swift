import CofferTestSupport
import CryptoKit
import Foundation
import KeychainModel
@_spi(Testing) import Security
import Testing

/// Identities in the keychain (reference §7.4): a private key whose application label is a certificate's public
/// key hash, found with `kSecClassIdentity`, added, updated and deleted through the certificate and the key as
/// Apple's client does; on both transports.
@Suite(.timeLimit(.minutes(10))) struct IdentityItemTests {
    /// A P-256 key openssl made, and self-signed certificates of it.
    struct Made: Sendable {
        let keyRepresentation: Data
        let certificate: Data
        let secondCertificate: Data
        let otherKeyCertificate: Data
    }

    private static let made: Result<Made, OpenSSLWorkspace.Failure> = Result {
        let workspace = try OpenSSLWorkspace()
        defer { workspace.remove() }
        try workspace.openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "@key.pem")
        try workspace.openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "@other.pem")
        func certificate(_ key: String, _ subject: String, _ name: String) throws -> Data {
            try workspace.openssl("req", "-new", "-x509", "-key", "@\(key).pem", "-subj", subject, "-days", "30", "-out", "@\(name).pem")
            return try workspace.certificateDER(name)
        }
        let pem = String(decoding: try workspace.read("key.pem"), as: UTF8.self)
        let key = try P256.Signing.PrivateKey(pemRepresentation: pem)
        return Made(
            keyRepresentation: key.x963Representation,
            certificate: try certificate("key", "/CN=Coffer Identity/O=Coffer", "first"),
            secondCertificate: try certificate("key", "/CN=Coffer Identity Renewed/O=Coffer", "second"),
            otherKeyCertificate: try certificate("other", "/CN=Coffer Other/O=Coffer", "other"))
    }.mapError { OpenSSLWorkspace.Failure(description: "\($0)") }

    private struct Parts {
        let key: SecKey
        let certificate: SecCertificate
        let secondCertificate: SecCertificate
        let otherKeyCertificate: SecCertificate
        let identity: SecIdentity
    }

    private static func parts() throws -> Parts {
        let made = try made.get()
        let attributes: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate]
        let key = try #require(SecKeyCreateWithData(made.keyRepresentation as CFData, attributes as CFDictionary, nil))
        let certificate = try #require(SecCertificateCreateWithData(nil, made.certificate as CFData))
        return Parts(
            key: key, certificate: certificate,
            secondCertificate: try #require(SecCertificateCreateWithData(nil, made.secondCertificate as CFData)),
            otherKeyCertificate: try #require(SecCertificateCreateWithData(nil, made.otherKeyCertificate as CFData)),
            identity: try #require(SecIdentityCreate(nil, certificate, key)))
    }

    private static func copy(_ query: [String: Any]) -> (OSStatus, CFTypeRef?) {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result)
    }

    private static func identities(_ extra: [String: Any] = [:]) -> [String: Any] {
        [kSecClass as String: kSecClassIdentity].merging(extra) { _, new in new }
    }

    private static func count(_ itemClass: CFString, _ extra: [String: Any] = [:]) -> Int {
        let query: [String: Any] = [kSecClass as String: itemClass, kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true]
        let (status, result) = copy(query.merging(extra) { _, new in new })
        return status == errSecSuccess ? (result as? [[String: Any]])?.count ?? -1 : 0
    }

    @Test func anIdentityIsItsCertificateAndTheKeyOfItsPublicKey() throws {
        let parts = try Self.parts()
        var certificate: SecCertificate?
        var key: SecKey?
        #expect(SecIdentityCopyCertificate(parts.identity, &certificate) == errSecSuccess)
        #expect(SecIdentityCopyPrivateKey(parts.identity, &key) == errSecSuccess)
        #expect(certificate == parts.certificate)
        #expect(key == parts.key)
        #expect(CFGetTypeID(parts.identity) == SecIdentityGetTypeID())
        // A key that is not the certificate's makes no identity.
        #expect(SecIdentityCreate(nil, parts.otherKeyCertificate, parts.key) == nil)
        #expect("\(parts.identity)".hasPrefix("<SecIdentityRef: 0x"))
    }

    /// §7.4: adding an identity adds its certificate and its key; the result is the identity's persistent
    /// reference; a search by class identity returns a `SecIdentity` whose key signs for its certificate.
    @Test(arguments: Transport.allCases) func anAddedIdentityIsFoundAsOneAndItsKeySigns(transport: Transport) throws {
        let parts = try Self.parts()
        try withFreshKeychain(transport: transport) {
            var added: CFTypeRef?
            let add: [String: Any] = [kSecValueRef as String: parts.identity, kSecReturnPersistentRef as String: true]
            #expect(SecItemAdd(add as CFDictionary, &added) == errSecSuccess)
            let reference = try #require(added as? Data)
            #expect(reference.count == 20 && reference.prefix(4) == Data("idnt".utf8))
            #expect(Self.count(kSecClassCertificate) == 1)
            #expect(Self.count(kSecClassKey) == 1)

            let (status, found) = Self.copy(Self.identities([kSecReturnRef as String: true]))
            #expect(status == errSecSuccess)
            let identity = try #require(found as? SecIdentity)
            #expect(identity == parts.identity)
            var key: SecKey?
            #expect(SecIdentityCopyPrivateKey(identity, &key) == errSecSuccess)
            let privateKey = try #require(key)
            let signature = try #require(SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256, Data("hello".utf8) as CFData, nil))
            let certificateKey = try #require(SecCertificateCopyKey(parts.certificate))
            #expect(SecKeyVerifySignature(certificateKey, .ecdsaSignatureMessageX962SHA256, Data("hello".utf8) as CFData, signature, nil))

            // The persistent reference names the identity, in a search and in a delete.
            let (byReference, again) = Self.copy([kSecValuePersistentRef as String: reference, kSecReturnRef as String: true])
            #expect(byReference == errSecSuccess)
            #expect(again as? SecIdentity == parts.identity)
            #expect(SecItemDelete([kSecValuePersistentRef as String: reference] as CFDictionary) == errSecSuccess)
            #expect(Self.count(kSecClassCertificate) == 0)
            #expect(Self.count(kSecClassKey) == 0)
            #expect(Self.copy(Self.identities()).0 == errSecItemNotFound)
        }
    }

    /// §7.4 (`explode_identity`): a certificate already there is no failure when the key is added, a key
    /// already there none when the certificate is; both there is a duplicate.
    @Test(arguments: Transport.allCases) func addingWhatIsMissingOfAnIdentity(transport: Transport) throws {
        let parts = try Self.parts()
        try withFreshKeychain(transport: transport) {
            let identity = [kSecValueRef as String: parts.identity] as CFDictionary
            #expect(SecItemAdd([kSecValueRef as String: parts.certificate] as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd(identity, nil) == errSecSuccess)
            #expect(SecItemAdd(identity, nil) == errSecDuplicateItem)
            #expect(SecItemDelete([kSecClass as String: kSecClassCertificate] as CFDictionary) == errSecSuccess)
            #expect(Self.count(kSecClassKey) == 1)
            #expect(SecItemAdd(identity, nil) == errSecSuccess)
            #expect(Self.count(kSecClassCertificate) == 1)
        }
    }

    /// A certificate without its key, or a key without a certificate, is no identity.
    @Test(arguments: Transport.allCases) func aCertificateOrAKeyAloneIsNoIdentity(transport: Transport) throws {
        let parts = try Self.parts()
        try withFreshKeychain(transport: transport) {
            #expect(SecItemAdd([kSecValueRef as String: parts.otherKeyCertificate] as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd([kSecValueRef as String: parts.key] as CFDictionary, nil) == errSecSuccess)
            #expect(Self.copy(Self.identities()).0 == errSecItemNotFound)
            #expect(SecItemAdd([kSecValueRef as String: parts.certificate] as CFDictionary, nil) == errSecSuccess)
            #expect(Self.copy(Self.identities()).0 == errSecSuccess)
        }
    }

    /// §7.4: attributes are the key's overlaid with the certificate's; `kSecAttrLabel` filters the certificate,
    /// `kSecAttrApplicationTag` the key; two certificates of one key are two identities.
    @Test(arguments: Transport.allCases) func filtersSplitBetweenTheCertificateAndTheKey(transport: Transport) throws {
        let parts = try Self.parts()
        try withFreshKeychain(transport: transport) {
            let tag = Data("com.example.identity".utf8)
            #expect(SecItemAdd([kSecValueRef as String: parts.key, kSecAttrApplicationTag as String: tag] as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd([kSecValueRef as String: parts.certificate] as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd([kSecValueRef as String: parts.secondCertificate] as CFDictionary, nil) == errSecSuccess)

            let all = Self.copy(Self.identities([kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true]))
            #expect(all.0 == errSecSuccess)
            let dictionaries = try #require(all.1 as? [[String: Any]])
            #expect(Set(dictionaries.compactMap { $0[kSecAttrLabel as String] as? String }) == ["Coffer Identity", "Coffer Identity Renewed"])
            let first = try #require(dictionaries.first)
            #expect(first[kSecAttrApplicationTag as String] as? Data == tag)
            #expect(first[kSecAttrKeyClass as String] as? Int == 1, "a number in the keychain, as Apple stores it")
            #expect(first[kSecAttrApplicationLabel as String] as? Data == first[kSecAttrPublicKeyHash as String] as? Data)
            #expect(first[kSecAttrAccessible as String] as? String == kSecAttrAccessibleAlways as String, "the certificate's protection shows")

            let renewed = Self.copy(Self.identities([kSecAttrLabel as String: "Coffer Identity Renewed", kSecReturnRef as String: true]))
            var certificate: SecCertificate?
            let renewedIdentity = try #require(renewed.1 as? SecIdentity)
            #expect(SecIdentityCopyCertificate(renewedIdentity, &certificate) == errSecSuccess)
            #expect(certificate == parts.secondCertificate)
            #expect(Self.copy(Self.identities([kSecAttrApplicationTag as String: tag])).0 == errSecSuccess)
            #expect(Self.copy(Self.identities([kSecAttrApplicationTag as String: Data("other".utf8)])).0 == errSecItemNotFound)
            #expect(Self.copy(Self.identities([kSecAttrLabel as String: "Coffer Other"])).0 == errSecItemNotFound)
        }
    }

    /// §7.4: deleting an identity keeps its key while another certificate of the key remains; deleting by
    /// class deletes the matching certificates, then the matching keys.
    @Test(arguments: Transport.allCases) func deletingAnIdentityKeepsAKeyStillInUse(transport: Transport) throws {
        let parts = try Self.parts()
        try withFreshKeychain(transport: transport) {
            #expect(SecItemAdd([kSecValueRef as String: parts.identity] as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd([kSecValueRef as String: parts.secondCertificate] as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemDelete([kSecValueRef as String: parts.identity] as CFDictionary) == errSecSuccess)
            #expect(Self.count(kSecClassCertificate) == 1)
            #expect(Self.count(kSecClassKey) == 1, "the renewed certificate still needs the key")

            #expect(SecItemDelete(Self.identities() as CFDictionary) == errSecSuccess)
            #expect(Self.count(kSecClassCertificate) == 0)
            #expect(Self.count(kSecClassKey) == 0)
            #expect(SecItemDelete(Self.identities() as CFDictionary) == errSecItemNotFound)
        }
    }

    /// The identity's key keeps its access control: an identity search opens the key as a key search does
    /// (§6.3, §6.4), so a key that needs the person fails without interaction and is skipped with Skip.
    @Test(arguments: Transport.allCases) func anIdentityWhoseKeyNeedsThePersonIsGuarded(transport: Transport) throws {
        let parts = try Self.parts()
        try withFreshKeychain(transport: transport) {
            let access = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil))
            #expect(SecItemAdd([kSecValueRef as String: parts.certificate] as CFDictionary, nil) == errSecSuccess)
            let key: [String: Any] = [kSecValueRef as String: parts.key, kSecAttrAccessControl as String: access]
            #expect(SecItemAdd(key as CFDictionary, nil) == errSecSuccess)
            #expect(Self.copy(Self.identities([kSecReturnRef as String: true])).0 == errSecAuthFailed, "no passcode to prove presence with")
            let fail = Self.copy(Self.identities([kSecReturnRef as String: true, kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail]))
            #expect(fail.0 == errSecInteractionNotAllowed)
            let skip = Self.copy(Self.identities([kSecReturnRef as String: true, kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip]))
            #expect(skip.0 == errSecItemNotFound)
            #expect(skip.1 == nil)
        }
    }

    /// §7.4 (`handleUpdateIdentity`): an update of an identity changes its certificate and its key.
    @Test(arguments: Transport.allCases) func updatingAnIdentityChangesItsCertificateAndKey(transport: Transport) throws {
        let parts = try Self.parts()
        try withFreshKeychain(transport: transport) {
            #expect(SecItemAdd([kSecValueRef as String: parts.identity] as CFDictionary, nil) == errSecSuccess)
            let changes = [kSecAttrLabel as String: "Renamed"] as CFDictionary
            #expect(SecItemUpdate([kSecValueRef as String: parts.identity] as CFDictionary, changes) == errSecSuccess)
            #expect(Self.count(kSecClassCertificate, [kSecAttrLabel as String: "Renamed"]) == 1)
            #expect(Self.count(kSecClassKey, [kSecAttrLabel as String: "Renamed"]) == 1)
            let byClass = [kSecAttrLabel as String: "By class"] as CFDictionary
            #expect(SecItemUpdate(Self.identities() as CFDictionary, byClass) == errSecSuccess)
            #expect(Self.count(kSecClassCertificate, [kSecAttrLabel as String: "By class"]) == 1)
            #expect(Self.count(kSecClassKey, [kSecAttrLabel as String: "By class"]) == 1)
            #expect(Self.copy(Self.identities([kSecAttrLabel as String: "By class"])).0 == errSecSuccess)
        }
    }
}
