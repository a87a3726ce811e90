import Crypto
import Foundation
import KeychainOperations
import LocalAuthentication
import Security
import Testing

// coffer-lint:disable-file status-ignored: the example removes an earlier enrollment as the article it follows does.

/// The app's code of the DocC article "Two-factor sign-in with a key that never leaves the keychain"
/// (Security.docc/TwoFactorWithAKeyThatNeverLeaves.md), as written there.
private enum LoginKey {
    /// How the app finds its key again; one key per account and device.
    static let tag = Data("com.example.bank.login-key".utf8)

    /// Makes the key in the keychain and returns its public half for the server: X9.63 (0x04, X, Y; 65 bytes).
    static func enroll() throws -> Data {
        var error: Unmanaged<CFError>?
        guard
            let access = SecAccessControlCreateWithFlags(
                nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage, .userPresence], &error)
        else { throw error!.takeRetainedValue() as Error }

        // Enrolling again replaces the key of an earlier enrollment.
        let earlier: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrApplicationTag as String: tag,
        ]
        SecItemDelete(earlier as CFDictionary)

        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true,
                kSecAttrApplicationTag as String: tag,
                kSecAttrAccessControl as String: access,
            ],
        ]
        guard let privateKey = SecKeyCreateRandomKey(parameters as CFDictionary, &error) else {
            throw error!.takeRetainedValue() as Error
        }
        let publicKey = SecKeyCopyPublicKey(privateKey)!  // an elliptic-curve private key always has one
        guard let exported = SecKeyCopyExternalRepresentation(publicKey, &error) else {
            throw error!.takeRetainedValue() as Error
        }
        return exported as Data
    }

    /// Signs `challenge` with the enrolled key: an ECDSA signature over its SHA-256 hash, DER-encoded.
    /// The keychain asks the owner first.
    static func sign(_ challenge: Data) throws -> Data {
        let query: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrApplicationTag as String: tag,
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecReturnRef as String: true,
            kSecUseOperationPrompt as String: "Sign in to Example Bank",
        ]
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        guard status == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
        let privateKey = item as! SecKey

        var error: Unmanaged<CFError>?
        guard
            let signature = SecKeyCreateSignature(
                privateKey, .ecdsaSignatureMessageX962SHA256, challenge as CFData, &error)
        else { throw error!.takeRetainedValue() as Error }
        return signature as Data
    }
}

/// The article's server, as written there (swift-crypto).
private final class LoginServer {
    private var publicKeys: [String: P256.Signing.PublicKey] = [:]
    private var pendingChallenges: [String: Data] = [:]

    /// Enrollment: files the device's public key under `user`. Bytes that are no P-256 point throw.
    func register(_ x963PublicKey: Data, for user: String) throws {
        publicKeys[user] = try P256.Signing.PublicKey(x963Representation: x963PublicKey)
    }

    /// Sign-in, first step: 32 random bytes, remembered until `user` answers.
    func challenge(for user: String) -> Data {
        var generator = SystemRandomNumberGenerator()
        let challenge = Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        pendingChallenges[user] = challenge
        return challenge
    }

    /// Sign-in, second step: true only for a signature of the challenge `user` was last sent. The
    /// challenge is used up either way, so a signature cannot be played back.
    func verify(_ derSignature: Data, from user: String) -> Bool {
        guard let challenge = pendingChallenges.removeValue(forKey: user),
            let publicKey = publicKeys[user],
            let signature = try? P256.Signing.ECDSASignature(derRepresentation: derSignature)
        else { return false }
        return publicKey.isValidSignature(signature, for: challenge)
    }
}

/// The article's flow through the daemon, with the person at the prompt agent played by the fixture.
@Suite("The two-factor article's example", .serialized, .timeLimit(.minutes(10)))
struct TwoFactorExampleTests {
    /// Enrolls (no prompt: the agent is not even listening yet), registers with `server` as alice, and
    /// registers the prompt agent with a prompt it cancels.
    private func enrollAlice(_ fixture: DaemonFixture, with server: LoginServer) async throws -> Data {
        let publicKey = try await fixture.onThread { Result { try LoginKey.enroll() } }.get()
        try server.register(publicKey, for: "alice")
        async let registered = evaluateOnceTheAgentListens(LAContext(), .deviceOwnerAuthentication, reason: "first")
        _ = await fixture.answer(try await fixture.nextPrompt(), with: nil)
        #expect(await registered.laError?.code == .userCancel)
        return publicKey
    }

    /// `LoginKey.sign(challenge)` on a thread of its own, with `answer` typed at its prompt (nil cancels).
    private func sign(_ challenge: Data, _ fixture: DaemonFixture, answering answer: String?) async throws -> Result<Data, any Error> {
        async let signed = fixture.onThread { Result { try LoginKey.sign(challenge) } }
        let prompt = try await fixture.nextPrompt()
        #expect(prompt.purpose == .authenticate)
        #expect(prompt.reason == "Sign in to Example Bank")
        #expect(await fixture.answer(prompt, with: answer) == .status(.success))
        return await signed
    }

    @Test func enrollmentThenEverySignInAsksThePersonAndTheServerAcceptsEachSignatureOnce() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            let server = LoginServer()
            let publicKey = try await enrollAlice(fixture, with: server)
            #expect(publicKey.count == 65)
            #expect(publicKey.first == 0x04)

            let challenge = server.challenge(for: "alice")
            #expect(challenge.count == 32)
            let signature = try await sign(challenge, fixture, answering: DaemonFixture.passcode).get()
            #expect(server.verify(signature, from: "alice"))
            // The challenge is used up: the same signature, played back, is refused.
            #expect(!server.verify(signature, from: "alice"))

            // The next sign-in asks the person again, and its challenge is another one.
            let next = server.challenge(for: "alice")
            #expect(next != challenge)
            let nextSignature = try await sign(next, fixture, answering: DaemonFixture.passcode).get()
            #expect(server.verify(nextSignature, from: "alice"))

            // Enrolling again replaces the key: one key item under the tag, whose public key is the new one.
            let prompts = fixture.cancelEveryPrompt()
            let replaced = try await fixture.onThread { Result { try LoginKey.enroll() } }.get()
            #expect(replaced != publicKey)
            let found = await fixture.onThread { () -> [Data] in
                var items: CFTypeRef?
                let query: [String: Any] = [
                    kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: LoginKey.tag,
                    kSecReturnRef as String: true, kSecMatchLimit as String: kSecMatchLimitAll,
                ]
                guard SecItemCopyMatching(query as CFDictionary, &items) == errSecSuccess, let keys = items as? [SecKey] else { return [] }
                return keys.compactMap { SecKeyCopyPublicKey($0).flatMap { SecKeyCopyExternalRepresentation($0, nil) as Data? } }
            }
            #expect(found == [replaced])
            #expect(prompts.value == 0)
        }
    }

    @Test func aChallengeChangedOnTheWayFailsVerification() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            let server = LoginServer()
            _ = try await enrollAlice(fixture, with: server)
            var tampered = server.challenge(for: "alice")
            tampered[0] ^= 0x01
            let signature = try await sign(tampered, fixture, answering: DaemonFixture.passcode).get()
            #expect(!server.verify(signature, from: "alice"))

            // The signature is sound: it verifies over the bytes that were signed, not over the challenge.
            let publicKey = try P256.Signing.PublicKey(
                x963Representation: try await fixture.onThread { () -> Data? in
                    let query: [String: Any] = [
                        kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: LoginKey.tag, kSecReturnRef as String: true,
                    ]
                    var item: CFTypeRef?
                    guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess, let key = item as? SecKey else { return nil }
                    return SecKeyCopyPublicKey(key).flatMap { SecKeyCopyExternalRepresentation($0, nil) as Data? }
                }.unwrap())
            #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: tampered))
        }
    }

    @Test func cancellingThePromptIsUserCanceledAndTheSameChallengeCanBeSignedAfter() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            let server = LoginServer()
            _ = try await enrollAlice(fixture, with: server)
            let challenge = server.challenge(for: "alice")
            let outcome = try await sign(challenge, fixture, answering: nil)
            let error = try #require(outcome.failure.map { $0 as NSError })
            #expect(error.domain == "NSOSStatusErrorDomain")
            #expect(error.domain == kCFErrorDomainOSStatus as String)
            #expect(error.code == -128)
            #expect(error.code == Int(errSecUserCanceled))

            // The server got nothing, so its challenge is still open: the owner tries again and signs in.
            let signature = try await sign(challenge, fixture, answering: DaemonFixture.passcode).get()
            #expect(server.verify(signature, from: "alice"))
        }
    }

    /// The article's aside: a context evaluated first, passed as `kSecUseAuthenticationContext`, signs without a second prompt.
    @Test func aContextEvaluatedFirstSignsWithoutAnotherPrompt() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            let server = LoginServer()
            _ = try await enrollAlice(fixture, with: server)
            let context = LAContext()
            // The proof outlives the evaluation by at least 10 s; a loaded machine may take longer to reach the
            // signature, so the context asks for the longest reuse, which the aside's point does not depend on.
            context.touchIDAuthenticationAllowableReuseDuration = LATouchIDAuthenticationMaximumAllowableReuseDuration
            async let evaluated = evaluate(context, .deviceOwnerAuthentication, reason: "Sign in to Example Bank")
            let prompt = try await fixture.nextPrompt()
            #expect(prompt.reason == "Sign in to Example Bank")
            #expect(await fixture.answer(prompt, with: DaemonFixture.passcode) == .status(.success))
            #expect(await evaluated.success)

            let prompts = fixture.cancelEveryPrompt()
            let challenge = server.challenge(for: "alice")
            let signed = await fixture.onThread { () -> Data? in
                let query: [String: Any] = [
                    kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: LoginKey.tag,
                    kSecReturnRef as String: true, kSecUseAuthenticationContext as String: context,
                ]
                var item: CFTypeRef?
                guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess, let key = item as? SecKey else { return nil }
                return SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, challenge as CFData, nil) as Data?
            }
            #expect(server.verify(try signed.unwrap(), from: "alice"))
            #expect(prompts.value == 0)
        }
    }

    @Test func thePrivateKeyCannotBeExported() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            _ = try await fixture.onThread { Result { try LoginKey.enroll() } }.get()
            let (bytes, code, domain) = await fixture.onThread { () -> (Data?, Int?, String?) in
                let query: [String: Any] = [
                    kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: LoginKey.tag, kSecReturnRef as String: true,
                ]
                var item: CFTypeRef?
                guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess, let privateKey = item as? SecKey else {
                    return (nil, nil, nil)
                }
                var error: Unmanaged<CFError>?
                let bytes = SecKeyCopyExternalRepresentation(privateKey, &error)
                let reported = error?.takeRetainedValue()
                return (bytes as Data?, reported.map { CFErrorGetCode($0) }, reported.map { CFErrorGetDomain($0) as String })
            }
            #expect(bytes == nil)
            #expect(code == -4)
            #expect(code == Int(errSecUnimplemented))
            #expect(domain == "NSOSStatusErrorDomain")
        }
    }
}

extension Result {
    /// The error of a failure; nil for a success.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

extension Optional {
    /// The value, or a thrown error when there is none.
    fileprivate func unwrap() throws -> Wrapped {
        guard let self else { throw MissingValue() }
        return self
    }
}

private struct MissingValue: Error {}
