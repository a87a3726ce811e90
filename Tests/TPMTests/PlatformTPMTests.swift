import Crypto
import Foundation
import KeychainModel
import TPMFixture
import Testing
import TrustedPlatformModule

/// The TPM connection against Debian's swtpm: sealing, the HMAC key, and ECC keys checked against swift-crypto.
@Suite struct PlatformTPMTests {
    @Test func sealedSecretsUnsealOnlyOnTheirTPM() throws {
        let first = try SoftwareTPM()
        defer { first.stop() }
        let second = try SoftwareTPM()
        defer { second.stop() }
        let secret = SecretBytes(copying: (0..<32).map { UInt8($0) })
        let blob: Data
        do {
            let tpm = try PlatformTPM(tcti: first.tcti)
            blob = try tpm.seal(secret)
            #expect(try tpm.unseal(blob) == secret)
        }
        // Another connection to the same TPM: the same SRK, and the blob still unseals.
        let again = try PlatformTPM(tcti: first.tcti)
        #expect(try again.unseal(blob) == secret)
        let other = try PlatformTPM(tcti: second.tcti)
        #expect(other.storageRootKey != again.storageRootKey)
        #expect(throws: TPMError.self) { try other.unseal(blob) }
    }

    @Test func aSecretSealedToPCRsUnsealsOnlyWhileTheyHoldTheirValues() throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        let secret = SecretBytes(copying: Array(repeating: 0x42, count: 32))
        let pcrs = try PCRSelection([16, 23])
        #expect(pcrs.list == [16, 23] && pcrs.description == "sha256:16,23")
        #expect(throws: TPMError.self) { try PCRSelection([24]) }
        let blob: Data
        let unbound: Data
        do {
            let tpm = try PlatformTPM(tcti: software.tcti)
            blob = try tpm.seal(secret, pcrs: pcrs)
            unbound = try tpm.seal(secret)
            #expect(try tpm.unseal(blob, pcrs: pcrs) == secret)
            // Only the policy authorises it: unsealed as an object without PCRs, or with other PCRs, it is refused.
            #expect(throws: TPMError.self) { try tpm.unseal(blob) }
            #expect(throws: TPMError.self) { try tpm.unseal(blob, pcrs: try PCRSelection([16])) }
            #expect(try tpm.unseal(blob, pcrs: pcrs) == secret)
        }
        try software.extendPCR(23)
        let tpm = try PlatformTPM(tcti: software.tcti)
        let refused = #expect(throws: TPMError.self) { try tpm.unseal(blob, pcrs: pcrs) }
        #expect(refused?.isPolicyFailure == true, "\(String(describing: refused))")
        #expect(refused?.reason.contains("no longer hold the values") == true)
        // A secret sealed to the chip alone is not affected by the boot state.
        #expect(try tpm.unseal(unbound) == secret)
        // Repeated refusals leave no session behind (the policy session is flushed each time).
        for _ in 0..<5 { #expect(throws: TPMError.self) { try tpm.unseal(blob, pcrs: pcrs) } }
        #expect(try tpm.unseal(unbound) == secret)
    }

    @Test func theSameTPMAnswersWithTheSameStorageRootKey() throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        let first = try PlatformTPM(tcti: software.tcti).storageRootKey
        let second = try PlatformTPM(tcti: software.tcti).storageRootKey
        #expect(first == second)
        #expect(first.x.count == 32 && first.y.count == 32)
        // The point is on P-256: swift-crypto accepts it as a public key.
        _ = try P256.KeyAgreement.PublicKey(x963Representation: Data([4]) + first.x + first.y)
    }

    @Test func theHMACKeyIsDeterministicPerKeyAndStaysLoaded() throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        let tpm = try PlatformTPM(tcti: software.tcti)
        let firstKey = try tpm.createHMACKey()
        let secondKey = try tpm.createHMACKey()
        let input = SecretBytes(copying: Array(repeating: 0x5A, count: 32))
        let before = tpm.commandsSent
        let mac = try tpm.hmac(keyBlob: firstKey, input)
        #expect(tpm.commandsSent - before == 2, "load and HMAC")
        let middle = tpm.commandsSent
        #expect(try tpm.hmac(keyBlob: firstKey, input) == mac)
        #expect(tpm.commandsSent - middle == 1, "the key stays loaded")
        #expect(try tpm.hmac(keyBlob: secondKey, input) != mac)
        #expect(try tpm.hmac(keyBlob: firstKey, SecretBytes(copying: Array(repeating: 0x5B, count: 32))) != mac)
        #expect(mac.count == 32)
    }

    @Test func eccSignaturesVerifyWithSwiftCrypto() throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        let tpm = try PlatformTPM(tcti: software.tcti)
        let key = try tpm.createECCKey()
        let publicKey = try P256.Signing.PublicKey(x963Representation: key.publicKey)
        let message = Data("a message signed inside the TPM".utf8)
        let digest = SHA256.hash(data: message)
        let raw = try tpm.sign(keyBlob: key.blob, digest: Data(digest))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: raw)
        #expect(publicKey.isValidSignature(signature, for: digest))
        #expect(!publicKey.isValidSignature(signature, for: SHA256.hash(data: Data("another".utf8))))
    }

    @Test func keyAgreementMatchesSwiftCrypto() throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        let tpm = try PlatformTPM(tcti: software.tcti)
        let key = try tpm.createECCKey()
        let peer = P256.KeyAgreement.PrivateKey()
        let inside = try tpm.keyAgreement(keyBlob: key.blob, peer: peer.publicKey.x963Representation)
        let outside = try peer.sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(x963Representation: key.publicKey))
        #expect(inside == SecretBytes(copying: outside.withUnsafeBytes { Array($0) }))
        #expect(throws: TPMError.self) { try tpm.keyAgreement(keyBlob: key.blob, peer: Data([4]) + Data(repeating: 1, count: 64)) }
    }

    @Test func aClosedConnectionLeavesNothingLoaded() throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        do {
            let tpm = try PlatformTPM(tcti: software.tcti)
            _ = try tpm.hmac(keyBlob: try tpm.createHMACKey(), SecretBytes(copying: [1, 2, 3]))
        }
        #expect(try software.loadedTransientObjects() == 0)
        #expect(try software.loadedSessions() == 0)
    }

    @Test func aTPMThatIsNotThereIsAClearError() throws {
        let port = try SoftwareTPM()
        let tcti = port.tcti
        port.stop()
        let error = #expect(throws: TPMError.self) { try PlatformTPM(tcti: tcti) }
        #expect(error?.reason.contains("cannot open the TPM at \(tcti)") == true)
    }
}
