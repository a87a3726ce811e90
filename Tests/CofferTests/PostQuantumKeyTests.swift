import Coffer
import CofferTestSupport
import Crypto
import Foundation
import Testing

/// Post-quantum keys the keychain keeps, through the Swift API on both transports: stored as key items under a
/// tag, found, used (decapsulation, ML-DSA signatures checked with swift-crypto) and deleted, the key with its item.
@Suite("Post-quantum keys through the Swift API", .timeLimit(.minutes(10)))
struct PostQuantumKeyTests {
    @Test(arguments: Transport.allCases) func anMLKEMKeyIsStoredFoundUsedAndDeleted(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let keychain = temporary.keychain
        let tag = Data("com.example.kem".utf8)
        let key = try await keychain.generatePostQuantumKey(.mlkem768, tag: tag, label: "Session keys")
        #expect(key.kind == .mlkem768)
        #expect(key.publicKey.count == 1184)
        #expect(key.accessControl == AccessControl(protection: .afterFirstUnlockThisDeviceOnly, flags: []))

        let found = try #require(try await keychain.postQuantumKey(tagged: tag))
        #expect(found.publicKey == key.publicKey)
        let sent = try MLKEM768.PublicKey(rawRepresentation: found.publicKey).encapsulate()
        let secret = try await keychain.decapsulate(sent.encapsulated, with: found)
        #expect(secret.withUnsafeBytes { Data($0) } == sent.sharedSecret.withUnsafeBytes { Data($0) })
        do {
            _ = try await keychain.signature(for: Data("m".utf8), with: found)
            Issue.record("an ML-KEM key signed")
        } catch {
            #expect(error.status == .param)
        }

        try await keychain.deletePostQuantumKeys(tagged: tag)
        #expect(try await keychain.postQuantumKey(tagged: tag) == nil)
        // The key went with its item: a handle kept from before is refused.
        do {
            _ = try await keychain.decapsulate(sent.encapsulated, with: found)
            Issue.record("a deleted key decapsulated")
        } catch {
            #expect(error.status == .itemNotFound)
        }
        do {
            try await keychain.deletePostQuantumKeys(tagged: tag)
            Issue.record("deleting nothing succeeded")
        } catch {
            #expect(error.status == .itemNotFound)
        }
    }

    @Test(arguments: Transport.allCases) func anMLDSAKeySignsWhatSwiftCryptoVerifies(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let keychain = temporary.keychain
        let tag = Data("com.example.release-signing".utf8)
        for kind in [PostQuantumKey.Kind.mldsa65, .mldsa87] {
            let key = try await keychain.generatePostQuantumKey(kind, tag: tag + Data(kind.rawValue.utf8))
            let found = try #require(try await keychain.postQuantumKey(tagged: tag + Data(kind.rawValue.utf8)))
            #expect(found.kind == kind)
            let message = Data("release 2.0".utf8), context = Data("coffer-release".utf8)
            let signature = try await keychain.signature(for: message, context: context, with: found)
            let valid =
                kind == .mldsa65
                ? try MLDSA65.PublicKey(rawRepresentation: key.publicKey).isValidSignature(signature, for: message, context: context)
                : try MLDSA87.PublicKey(rawRepresentation: key.publicKey).isValidSignature(signature, for: message, context: context)
            #expect(valid)
        }
    }

    @Test(arguments: Transport.allCases) func keysOfBothKindsUnderOneTagStayApart(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let keychain = temporary.keychain
        let tag = Data("com.example.both".utf8)
        let postQuantum = try await keychain.generatePostQuantumKey(.mldsa65, tag: tag)
        let ec = try await keychain.generateKey(type: .ellipticCurve, sizeInBits: 256, tag: tag)
        #expect(try await keychain.key(tagged: tag)?.publicKey == ec.publicKey)
        #expect(try await keychain.postQuantumKey(tagged: tag)?.publicKey == postQuantum.publicKey)
        // Deleting the post-quantum keys leaves the other key under the tag.
        try await keychain.deletePostQuantumKeys(tagged: tag)
        #expect(try await keychain.postQuantumKey(tagged: tag) == nil)
        #expect(try await keychain.key(tagged: tag)?.publicKey == ec.publicKey)
        do {
            try await keychain.deletePostQuantumKeys(tagged: tag)
            Issue.record("nothing left to delete, yet no error")
        } catch {
            #expect(error.status == .itemNotFound)
        }
        // A tag with only a post-quantum key holds no classic key.
        let only = Data("com.example.only-pq".utf8)
        _ = try await keychain.generatePostQuantumKey(.mlkem1024, tag: only)
        #expect(try await keychain.key(tagged: only) == nil)
        try await keychain.deleteKeys(tagged: only)
        #expect(try await keychain.postQuantumKey(tagged: only) == nil)
    }

    @Test(arguments: Transport.allCases) func aContextThatMayNotPromptIsRefusedWhereTheKeyAsksForThePerson(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let keychain = temporary.keychain
        let control = AccessControl(protection: .whenUnlockedThisDeviceOnly, flags: [.privateKeyUsage, .userPresence])
        let signer = try await keychain.generatePostQuantumKey(.mldsa65, tag: Data("guarded".utf8), accessControl: control)
        let kem = try await keychain.generatePostQuantumKey(.mlkem768, tag: Data("guarded-kem".utf8), accessControl: control)
        let silent = AuthenticationContext(interactionNotAllowed: true)
        do {
            _ = try await keychain.signature(for: Data("m".utf8), with: signer, authenticationContext: silent, reason: "Sign the release")
            Issue.record("a key that asks for the person signed without asking")
        } catch {
            #expect(error.status == .interactionNotAllowed)
        }
        let sent = try MLKEM768.PublicKey(rawRepresentation: kem.publicKey).encapsulate()
        do {
            _ = try await keychain.decapsulate(sent.encapsulated, with: kem, authenticationContext: silent)
            Issue.record("a key that asks for the person decapsulated without asking")
        } catch {
            #expect(error.status == .interactionNotAllowed)
        }
        // A key without constraints is used with the same context.
        let free = try await keychain.generatePostQuantumKey(.mldsa65, tag: Data("free".utf8))
        let signature = try await keychain.signature(for: Data("m".utf8), with: free, authenticationContext: silent)
        #expect(try MLDSA65.PublicKey(rawRepresentation: free.publicKey).isValidSignature(signature, for: Data("m".utf8)))
    }

    @Test(arguments: Transport.allCases) func appleCodeListingKeysIsNotDisturbedByThem(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let keychain = temporary.keychain
        _ = try await keychain.generatePostQuantumKey(.mlkem1024, tag: Data("pq".utf8))
        _ = try await keychain.generateKey(type: .ellipticCurve, sizeInBits: 256, tag: Data("ec".utf8))
        // The EC key is found by its tag as before; the post-quantum item is no SecKey and is not offered as one.
        let ec = try await keychain.key(tagged: Data("ec".utf8))
        #expect(ec?.type == .ellipticCurve)
        #expect(try await keychain.postQuantumKey(tagged: Data("ec".utf8)) == nil)
        #expect(try await keychain.postQuantumKey(tagged: Data("pq".utf8))?.kind == .mlkem1024)
    }
}
