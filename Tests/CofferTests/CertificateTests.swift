import Coffer
import CofferTestSupport
import Foundation
import Testing
import TestProcesses

/// Certificates and identities through the Swift API, on both transports: certificates read as Apple reads them
/// (reference §7.3) and checked against openssl, stored and found by their attributes, and found with the private
/// key of their public key as identities (§7.4).
@Suite("Certificates and identities through the Swift API", .timeLimit(.minutes(10)))
struct CertificateTests {
    init() throws { try DebianPackages.ensureInstalled(["openssl"]) }

    private let message = bytes("challenge")

    @Test func aCertificateIsReadAsAppleReadsItAndAsOpenSSLPrintsIt() throws {
        let authority = try TestAuthority()
        defer { authority.remove() }
        let key = try PrivateKey(externalRepresentation: TestAuthority.p256Key, type: .ellipticCurve)
        let der = try authority.certificate(for: key.publicKey, subject: "/CN=client.example/O=Coffer", serial: "0x85")
        let certificate = try Certificate(derRepresentation: der)
        #expect(certificate.derRepresentation == der)
        #expect(certificate.subjectSummary == "client.example")
        #expect(certificate.issuerSummary == "Coffer Test CA")
        #expect(certificate.commonNames == ["client.example"])
        #expect(certificate.emailAddresses.isEmpty)
        #expect(certificate.serialNumber == Data([0x00, 0x85]))  // the sign byte kept, as kSecAttrSerialNumber (§7.3)
        #expect(certificate.publicKeyHash == key.applicationLabel)  // pkhh == klbl
        #expect(certificate.publicKey == key.publicKey)
        #expect(certificate.notValidAfter.timeIntervalSince(certificate.notValidBefore) == 30 * 86_400)
        #expect(certificate.isValid())
        #expect(!certificate.isValid(at: certificate.notValidAfter.addingTimeInterval(1)))
        #expect(certificate.sha1Fingerprint == (try authority.fingerprint(der, "sha1")))
        #expect(certificate.sha256Fingerprint == (try authority.fingerprint(der, "sha256")))
        let pem = try authority.pem(der)
        #expect(certificate.pemRepresentation == pem)
        #expect(try Certificate(pemRepresentation: "Issued to us:\n" + pem) == certificate)
        #expect(certificate.label == nil && certificate.persistentReference == nil)
        #expect(certificate.description == "certificate \"client.example\" issued by \"Coffer Test CA\"")

        let garbage = #expect(throws: KeychainError.self) { try Certificate(derRepresentation: bytes("not a certificate")) }
        #expect(garbage?.status == .decode)  // errSecDecode (-26275)
        #expect(garbage?.operation == .readCertificate)
        #expect(garbage?.reason?.hasPrefix("The bytes are no DER X.509 certificate: ") == true)
        let noBlock = #expect(throws: KeychainError.self) { try Certificate(pemRepresentation: "-----BEGIN PUBLIC KEY-----\n") }
        #expect(noBlock?.status == .decode)
    }

    @Test(arguments: Transport.allCases) func aStoredCertificateIsFoundByItsAttributesAndDeleted(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let authority = try TestAuthority()
        defer { authority.remove() }
        let key = try PrivateKey(externalRepresentation: TestAuthority.p256Key, type: .ellipticCurve)
        let certificate = try Certificate(derRepresentation: try authority.certificate(for: key.publicKey, subject: "/CN=client.example", serial: "7"))
        let other = try Certificate(derRepresentation: try authority.certificate(for: key.publicKey, subject: "/CN=renewed.example", serial: "8"))

        let stored = try await temporary.keychain.add(certificate: certificate)
        #expect(stored.derRepresentation == certificate.derRepresentation)
        #expect(stored.label == "client.example")  // the subject summary, as Apple's client infers it
        #expect(stored.accessGroup == temporary.defaultGroup)
        #expect(stored.accessibility == .always)  // a certificate's default protection is `dk` (§1.5)
        #expect(stored.persistentReference?.data.prefix(4) == bytes("cert"))
        let labelled = try await temporary.keychain.add(certificate: other, label: "Renewed", accessibility: .afterFirstUnlock)
        #expect(labelled.label == "Renewed")
        #expect(labelled.accessibility == .afterFirstUnlock)

        let duplicate = await #expect(throws: KeychainError.self) { try await temporary.keychain.add(certificate: certificate, label: "again") }
        #expect(duplicate?.status == .duplicateItem)  // same issuer and serial number in the same group (§1.4)

        #expect(try await temporary.keychain.certificates() == [stored, labelled])
        #expect(try await temporary.keychain.certificates(matching: CertificateQuery(subjectContains: "CLIENT")) == [stored])
        #expect(try await temporary.keychain.certificates(matching: CertificateQuery(label: "Renewed")) == [labelled])
        #expect(try await temporary.keychain.certificates(matching: CertificateQuery(publicKeyHash: key.applicationLabel)).count == 2)
        #expect(try await temporary.keychain.certificate(matching: CertificateQuery(serialNumber: Data([0x08]))) == labelled)
        #expect(try await temporary.keychain.certificate(matching: CertificateQuery(label: "nobody")) == nil)
        // A certificate is no identity without its key.
        #expect(try await temporary.keychain.identities().isEmpty)

        try await temporary.keychain.delete(stored)
        #expect(try await temporary.keychain.certificates() == [labelled])
        let again = await #expect(throws: KeychainError.self) { try await temporary.keychain.delete(stored) }
        #expect(again?.status == .itemNotFound)
    }

    @Test(arguments: Transport.allCases) func aCertificateAndTheKeyOfItsPublicKeyAreFoundAsAnIdentity(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let authority = try TestAuthority()
        defer { authority.remove() }
        let tag = bytes("com.example.client")
        let key = try await temporary.keychain.generateKey(type: .ellipticCurve, sizeInBits: 256, tag: tag, label: "Client key")
        let certificate = try await temporary.keychain.add(
            certificate: try Certificate(derRepresentation: try authority.certificate(for: key.publicKey, subject: "/CN=client.example", serial: "7")))
        let otherKey = try PrivateKey(externalRepresentation: TestAuthority.p256Key, type: .ellipticCurve)
        let unpaired = try await temporary.keychain.add(
            certificate: try Certificate(derRepresentation: try authority.certificate(for: otherKey.publicKey, subject: "/CN=other.example", serial: "9")))

        let identities = try await temporary.keychain.identities()
        #expect(identities.count == 1)
        let identity = try #require(identities.first)
        #expect(identity.certificate == certificate)  // with its stored attributes and its own persistent reference
        #expect(identity.privateKey.applicationLabel == key.applicationLabel)
        #expect(identity.privateKey.applicationTag == tag)
        #expect(try identity.privateKey.externalRepresentation() == (try key.externalRepresentation()))
        #expect(identity.description == "identity of certificate \"client.example\" issued by \"Coffer Test CA\" with EC P-256 private key")

        // The identity's key signs for its certificate.
        let signature = try await temporary.keychain.sign(message, with: identity.privateKey, algorithm: .ecdsaSignatureMessageX962SHA256)
        let publicKey = try #require(identity.certificate.publicKey)
        #expect(try publicKey.isValidSignature(signature, for: message, algorithm: .ecdsaSignatureMessageX962SHA256))

        #expect(try await temporary.keychain.identity(matching: IdentityQuery(subjectContains: "CLIENT")) == identity)
        #expect(try await temporary.keychain.identity(matching: IdentityQuery(label: "client.example")) == identity)
        #expect(try await temporary.keychain.identity(matching: IdentityQuery(applicationTag: tag)) == identity)
        #expect(try await temporary.keychain.identity(matching: IdentityQuery(applicationTag: bytes("other"))) == nil)
        #expect(try await temporary.keychain.identity(matching: IdentityQuery(subjectContains: "other")) == nil)

        #expect(try Identity(certificate: certificate, privateKey: key) == Identity(certificate: certificate, privateKey: key))
        let mismatched = #expect(throws: KeychainError.self) { try Identity(certificate: unpaired, privateKey: key) }
        #expect(mismatched?.status == .param)

        // Deleting the identity deletes its certificate and its key (no other certificate has the key), not the others.
        try await temporary.keychain.delete(identity)
        #expect(try await temporary.keychain.certificates() == [unpaired])
        #expect(try await temporary.keychain.key(tagged: tag) == nil)
        #expect(try await temporary.keychain.identities().isEmpty)
    }

    @Test(arguments: Transport.allCases) func anIdentityKeepsItsKeyWhileAnotherCertificateHasIt(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let authority = try TestAuthority()
        defer { authority.remove() }
        let tag = bytes("com.example.renewing")
        let key = try await temporary.keychain.generateKey(type: .ellipticCurve, sizeInBits: 256, tag: tag, neverLeavesKeychain: true)
        for (subject, serial) in [("/CN=old.example", "1"), ("/CN=new.example", "2")] {
            try await temporary.keychain.add(
                certificate: try Certificate(derRepresentation: try authority.certificate(for: key.publicKey, subject: subject, serial: serial)))
        }
        let identities = try await temporary.keychain.identities()
        #expect(identities.map(\.certificate.subjectSummary) == ["old.example", "new.example"])
        let old = try #require(identities.first)
        // A key that never leaves the keychain makes an identity too, and signs through the keychain.
        #expect(old.privateKey.neverLeavesKeychain)
        let signature = try await temporary.keychain.sign(message, with: old.privateKey, algorithm: .ecdsaSignatureMessageX962SHA256)
        #expect(try #require(old.certificate.publicKey).isValidSignature(signature, for: message, algorithm: .ecdsaSignatureMessageX962SHA256))

        // §7.4: the key stays while another certificate still has its public key.
        try await temporary.keychain.delete(old)
        #expect(try await temporary.keychain.key(tagged: tag) != nil)
        #expect(try await temporary.keychain.identities().map(\.certificate.subjectSummary) == ["new.example"])
    }
}

/// A certificate authority openssl made in a temporary folder, which signs certificates for public keys Coffer
/// holds (`openssl x509 -new -force_pubkey`).
private struct TestAuthority {
    /// A P-256 private key's X9.63 bytes (04‖X‖Y‖K): K = 1, whose public key is the curve's generator point
    /// (SEC 2 §2.4.2). A valid key, and no secret.
    static let p256Key = Data(
        hex: "04" + "6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296"
            + "4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5"
            + "0000000000000000000000000000000000000000000000000000000000000001")

    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-authority-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("ca.key"),
            "-subj", "/CN=Coffer Test CA", "-days", "30", "-out", path("ca.pem"),
        ])
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// The DER of a certificate of `publicKey` for `subject`, with `serial`, valid for 30 days.
    func certificate(for publicKey: PublicKey, subject: String, serial: String) throws -> Data {
        // SubjectPublicKeyInfo of a P-256 key: id-ecPublicKey, prime256v1, then the X9.63 point.
        let spki = Data(hex: "3059301306072A8648CE3D020106082A8648CE3D030107034200") + publicKey.externalRepresentation
        let name = UUID().uuidString
        try Data(pem(spki, label: "PUBLIC KEY").utf8).write(to: folder.appendingPathComponent("\(name).pub"))
        try openssl([
            "x509", "-new", "-subj", subject, "-force_pubkey", path("\(name).pub"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
            "-set_serial", serial, "-days", "30", "-outform", "DER", "-out", path("\(name).der"),
        ])
        return try Data(contentsOf: folder.appendingPathComponent("\(name).der"))
    }

    /// The certificate as `openssl x509` writes its PEM.
    func pem(_ der: Data) throws -> String {
        String(decoding: try openssl(["x509", "-inform", "DER"], input: der), as: UTF8.self)
    }

    /// The certificate's fingerprint by `openssl x509 -fingerprint -<digest>`.
    func fingerprint(_ der: Data, _ digest: String) throws -> Data {
        let printed = String(decoding: try openssl(["x509", "-inform", "DER", "-noout", "-fingerprint", "-\(digest)"], input: der), as: UTF8.self)
        let hex = String(printed.split(separator: "=", maxSplits: 1)[1]).trimmingCharacters(in: .newlines).replacingOccurrences(of: ":", with: "")
        return Data(hex: hex)
    }

    @discardableResult
    private func openssl(_ arguments: [String], input: Data = Data()) throws -> Data {
        // ChildProcess, not Foundation's Process: see TestProcesses for why the tests never use the latter.
        let outcome = try ChildProcess.run(["/usr/bin/openssl"] + arguments, input: input)
        guard outcome.status == 0 else { throw Failure(description: "openssl \(arguments.joined(separator: " ")): \(outcome.errorText)") }
        return outcome.output
    }

    private func pem(_ der: Data, label: String) -> String {
        let base64 = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN \(label)-----\n\(base64)\n-----END \(label)-----\n"
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}
