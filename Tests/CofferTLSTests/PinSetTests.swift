import CofferTLS
import Crypto
import Foundation
import Security
import SwiftASN1
import Testing
import X509

/// SPKI SHA-256 pins and pin sets on their own: the pin's definition (HPKP, RFC 7469 §2.4), the backup rule
/// (§4.3: at least one pin not in the served chain), and checks of raw chains and evaluated trusts.
@Suite(.timeLimit(.minutes(10))) struct PinSetTests {
    let pki: TestPKI
    let server: ServerCredential
    let other: ServerCredential
    let later = Date() + 30 * 86_400

    init() throws {
        pki = try TestPKI()
        server = try ServerCredential(pki, name: "server")
        other = try ServerCredential(pki, name: "other")
    }

    /// A pin for a key no certificate here carries: a backup kept offline.
    private func offlineBackup() -> SPKIPin {
        var serializer = DER.Serializer()
        try! serializer.serialize(Certificate.PublicKey(P256.Signing.PrivateKey().publicKey))
        return SPKIPin(subjectPublicKeyInfo: serializer.serializedBytes)
    }

    @Test func aPinIsTheSHA256OfTheSubjectPublicKeyInfoInBase64() throws {
        var serializer = DER.Serializer()
        try serializer.serialize(server.certificate.publicKey)
        let expected = Array(SHA256.hash(data: serializer.serializedBytes))
        let pin = try SPKIPin(certificate: server.secCertificate)
        #expect(pin.sha256 == expected)
        #expect(try SPKIPin(certificateDER: TestPKI.der(server.certificate)) == pin)
        #expect(try SPKIPin(base64: Data(expected).base64EncodedString()) == pin)
        #expect(pin.base64 == Data(expected).base64EncodedString())
        #expect(pin.description == "pin-sha256=\"\(Data(expected).base64EncodedString())\"")
    }

    @Test func malformedPinsAreRefused() {
        #expect(throws: PinSetError(.malformedPin, "“not base64!” is not base64")) { try SPKIPin(base64: "not base64!") }
        #expect(throws: PinSetError(.malformedPin, "a SHA-256 pin has 32 bytes, not 20")) {
            try SPKIPin(base64: Data(repeating: 1, count: 20).base64EncodedString())
        }
        #expect(throws: PinSetError.self) { try SPKIPin(certificateDER: [0x30, 0x00]) }
        #expect((try? SPKIPin(certificateDER: [0x30, 0x00])) == nil)
    }

    @Test func aSetNeedsAtLeastTwoDistinctPins() throws {
        let pin = try SPKIPin(certificate: server.secCertificate)
        #expect(throws: PinSetError(.noBackupPin, "a pin set needs at least two distinct pins, the key in use and a backup key not in use yet; it has 1")) {
            try PinSet(pins: [pin, pin], expiration: later)
        }
        let set = try PinSet(base64SHA256: [pin.base64, offlineBackup().base64], expiration: later)
        #expect(set.pins.count == 2)
        #expect(set.isEnforced(at: Date()))
        #expect(!set.isEnforced(at: later))
    }

    @Test func theBackupRuleWantsAPinOutsideTheServedChain() throws {
        let served = [server.secCertificate, pki.anchor]
        let leafPin = try SPKIPin(certificate: server.secCertificate)
        let caPin = try SPKIPin(certificate: pki.anchor)
        let backup = offlineBackup()

        let noBackup = try PinSet(pins: [leafPin, caPin], expiration: later)
        #expect(noBackup.backupPins(notIn: served).isEmpty)
        #expect(throws: PinSetError(.noBackupPin, "every pin names a key of the chain given: the set has no backup pin")) {
            try noBackup.requireBackupPin(notIn: served)
        }
        let withBackup = try PinSet(pins: [leafPin, backup], expiration: later)
        #expect(withBackup.backupPins(notIn: served) == [backup])
        try withBackup.requireBackupPin(notIn: served)
    }

    @Test func rawChainsMatchAnyCertificateUntilTheSetExpires() throws {
        let chain = [server.secCertificate, pki.anchor]
        let caPin = try SPKIPin(certificate: pki.anchor)
        let set = try PinSet(pins: [caPin, offlineBackup()], expiration: later)
        #expect(set.check(chain: chain) == .matched(caPin, chainIndex: 1))
        #expect(set.check(derChain: [TestPKI.der(server.certificate), TestPKI.der(pki.ca)]) == .matched(caPin, chainIndex: 1))
        #expect(set.check(chain: [other.secCertificate]) == .noMatch)
        #expect(set.check(derChain: [[0x30, 0x00]]) == .noMatch)
        #expect(set.check(chain: [other.secCertificate], at: later) == .notEnforced(expiredAt: later))
        #expect(PinCheck.notEnforced(expiredAt: later).allowsConnection)
        #expect(!PinCheck.noMatch.allowsConnection)
    }

    @Test func anEvaluatedTrustIsCheckedOnTheChainItBuiltToTheAnchor() throws {
        // The server sends only its leaf; the pinned CA key is matched in the chain trust evaluation built.
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates(server.secCertificate, SecPolicyCreateSSL(true, "localhost" as CFString), &trust) == errSecSuccess)
        let evaluated = try #require(trust)
        #expect(SecTrustSetAnchorCertificates(evaluated, [pki.anchor] as CFArray) == errSecSuccess)
        #expect(SecTrustEvaluateWithError(evaluated, nil))
        let caPin = try SPKIPin(certificate: pki.anchor)
        let leafPin = try SPKIPin(certificate: server.secCertificate)
        #expect(try PinSet(pins: [caPin, offlineBackup()], expiration: later).check(evaluated) == .matched(caPin, chainIndex: 1))
        #expect(try PinSet(pins: [leafPin, offlineBackup()], expiration: later).check(evaluated) == .matched(leafPin, chainIndex: 0))
        #expect(try PinSet(pins: [offlineBackup(), offlineBackup()], expiration: later).check(evaluated) == .noMatch)

        // Without the test CA as anchor, trust fails and the pins are not looked at.
        var untrusted: SecTrust?
        #expect(SecTrustCreateWithCertificates(server.secCertificate, SecPolicyCreateSSL(true, "localhost" as CFString), &untrusted) == errSecSuccess)
        #expect(try PinSet(pins: [leafPin, offlineBackup()], expiration: later).check(#require(untrusted)) == .trustFailed)
    }
}
