import CryptoKit
import Foundation
import LocalAuthentication
import Security
import Testing

/// CryptoKit's post-quantum Secure Enclave keys with access control, through the daemon with the person at the prompt
/// agent: as for P-256 keys, making a key asks nothing, each use asks, cancelling is `errSecUserCanceled`, and an
/// `LAContext` evaluated once serves the uses of a key made or read with it without another prompt.
@Suite("Post-quantum enclave keys with a person at the prompt", .serialized, .timeLimit(.minutes(10)))
struct PostQuantumEnclaveKeyAuthenticationTests {
    private static func userPresence() -> SecAccessControl {
        SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage, .userPresence], nil)!
    }

    /// Registers the prompt agent (with a prompt it cancels), so that the uses below reach it.
    private func agentListens(_ fixture: DaemonFixture) async throws {
        async let registered = evaluateOnceTheAgentListens(LAContext(), .deviceOwnerAuthentication, reason: "first")
        _ = await fixture.answer(try await fixture.nextPrompt(), with: nil)
        #expect(await registered.laError?.code == .userCancel)
    }

    @Test func eachUseAsksAndCancellingIsUserCanceled() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            let access = Self.userPresence()
            let (signer, kem) = try await fixture.onThread {
                Result { (try SecureEnclave.MLDSA65.PrivateKey(accessControl: access), try SecureEnclave.MLKEM768.PrivateKey(accessControl: access)) }
            }.get()
            try await agentListens(fixture)
            let message = Data("release v3".utf8)

            async let signed = fixture.onThread { Result { try signer.signature(for: message) } }
            let prompt = try await fixture.nextPrompt()
            #expect(prompt.purpose == .authenticate)
            #expect(await fixture.answer(prompt, with: DaemonFixture.passcode) == .status(.success))
            let signature = try await signed.get()
            #expect(try MLDSA65.PublicKey(rawRepresentation: signer.publicKey.rawRepresentation).isValidSignature(signature, for: message))

            let sent = try kem.publicKey.encapsulate()
            async let cancelled = fixture.onThread { Result { try kem.decapsulate(sent.encapsulated) } }
            _ = await fixture.answer(try await fixture.nextPrompt(), with: nil)
            switch await cancelled {
            case .success: Issue.record("a cancelled prompt decapsulated")
            case .failure(let error as NSError):
                #expect(error.domain == "NSOSStatusErrorDomain" && error.code == Int(errSecUserCanceled))
            }

            async let decapsulated = fixture.onThread { Result { try kem.decapsulate(sent.encapsulated) } }
            _ = await fixture.answer(try await fixture.nextPrompt(), with: DaemonFixture.passcode)
            #expect(try await decapsulated.get() == sent.sharedSecret)
        }
    }

    @Test func aContextEvaluatedOnceServesTheKeysUses() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            let access = Self.userPresence()
            let handle = try await fixture.onThread { Result { try SecureEnclave.MLDSA87.PrivateKey(accessControl: access).dataRepresentation } }.get()
            try await agentListens(fixture)
            let context = LAContext()
            context.touchIDAuthenticationAllowableReuseDuration = LATouchIDAuthenticationMaximumAllowableReuseDuration
            async let evaluated = evaluate(context, .deviceOwnerAuthentication, reason: "Sign the release")
            #expect(await fixture.answer(try await fixture.nextPrompt(), with: DaemonFixture.passcode) == .status(.success))
            #expect(await evaluated.success)

            let prompts = fixture.cancelEveryPrompt()
            let message = Data("release v4".utf8)
            let outcome = await fixture.onThread { () -> Result<(Data, Data), any Error> in
                Result {
                    let key = try SecureEnclave.MLDSA87.PrivateKey(dataRepresentation: handle, authenticationContext: context)
                    return (try key.signature(for: message), key.publicKey.rawRepresentation)
                }
            }
            let (signature, publicKey) = try outcome.get()
            #expect(try MLDSA87.PublicKey(rawRepresentation: publicKey).isValidSignature(signature, for: message))
            #expect(prompts.value == 0)

            // Without the context the same key asks again (and the prompt is cancelled here).
            let refused = await fixture.onThread { () -> Int in
                do {
                    _ = try SecureEnclave.MLDSA87.PrivateKey(dataRepresentation: handle).signature(for: message)
                    return 0
                } catch let error as NSError {
                    return error.code
                }
            }
            #expect(refused == Int(errSecUserCanceled))
            #expect(prompts.value == 1)
        }
    }
}
