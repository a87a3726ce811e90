import Foundation
import KeychainClient
import LocalAuthentication
import Security
import Testing

/// `LAContext` on the embedded keychain: everything that needs no prompt. (This keychain has no fprintd
/// verifier, so biometry is never available here.)
@Suite("LAContext on the embedded keychain", .timeLimit(.minutes(10)))
struct EmbeddedContextTests {
    @Test func withoutAPasscodeDeviceOwnerAuthenticationCannotBeEvaluated() async throws {
        let fixture = try EmbeddedFixture()
        try await fixture.run {
            let context = LAContext()
            var error: NSError?
            #expect(!context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
            let reported = try #require(error)
            #expect(reported.domain == LAErrorDomain)
            #expect(reported.code == LAError.Code.passcodeNotSet.rawValue)
            #expect(LAError(_nsError: reported).code == .passcodeNotSet)
            // Evaluating fails the same way, without a prompt.
            let outcome = await evaluate(context, .deviceOwnerAuthentication, reason: "open the vault")
            #expect(!outcome.success)
            #expect(outcome.code == -5)
        }
    }

    @Test func withAPasscodeDeviceOwnerAuthenticationCanBeEvaluated() async throws {
        let fixture = try EmbeddedFixture(passcode: "1234")
        await fixture.run {
            var error: NSError? = NSError(domain: "stale", code: 1)
            #expect(LAContext().canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
            #expect(error == nil)
            #expect(LAContext().canEvaluatePolicy(.deviceOwnerAuthentication, error: nil))
        }
    }

    @Test func withoutFprintdBiometryIsNotAvailable() async throws {
        let fixture = try EmbeddedFixture(passcode: "1234")
        await fixture.run {
            let context = LAContext()
            #expect(context.biometryType == .none)
            var error: NSError?
            #expect(!context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
            #expect(error?.code == LAError.Code.biometryNotAvailable.rawValue)
            #expect(context.biometryType == .none)
            #expect(context.evaluatedPolicyDomainState == nil)
            #expect(!context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometricsOrCompanion, error: &error))
            #expect(error?.code == -6)
            let outcome = await evaluate(context, .deviceOwnerAuthenticationWithBiometrics, reason: "open the vault")
            #expect(outcome.laError?.code == .biometryNotAvailable)
            #expect(context.evaluatedPolicyDomainState == nil)
        }
    }

    @Test func linuxHasNoCompanionDevice() async throws {
        let fixture = try EmbeddedFixture(passcode: "1234")
        await fixture.run {
            let context = LAContext()
            var error: NSError?
            #expect(!context.canEvaluatePolicy(.deviceOwnerAuthenticationWithCompanion, error: &error))
            #expect(error?.code == LAError.Code.companionNotAvailable.rawValue)
            #expect(!context.canEvaluatePolicy(.deviceOwnerAuthenticationWithWristDetection, error: &error))
            #expect(error?.code == -11)
            let outcome = await evaluate(context, .deviceOwnerAuthenticationWithCompanion, reason: "open the vault")
            #expect(outcome.laError?.code == .companionNotAvailable)
        }
    }

    @Test func aContextThatMayNotPromptFailsNotInteractive() async throws {
        let fixture = try EmbeddedFixture(passcode: "1234")
        try await fixture.run {
            let context = LAContext()
            context.interactionNotAllowed = true
            let outcome = await evaluate(context, .deviceOwnerAuthentication, reason: "open the vault")
            #expect(!outcome.success)
            #expect(outcome.code == LAError.Code.notInteractive.rawValue)
            #expect((outcome.error.map { $0 as NSError })?.domain == LAErrorDomain)
            #expect(!outcome.onCallingThread)
            do {
                _ = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "open the vault")
                Issue.record("a context that may not prompt evaluated without a proof")
            } catch LAError.notInteractive {
            }
        }
    }

    /// Apple's framework raises an exception for an empty reason; Coffer fails the evaluation instead.
    @Test func anEmptyReasonFailsWithoutCrashing() async throws {
        let fixture = try EmbeddedFixture(passcode: "1234")
        await fixture.run {
            let context = LAContext()
            let outcome = await evaluate(context, .deviceOwnerAuthentication, reason: "")
            #expect(!outcome.success)
            #expect(outcome.laError?.code == .authenticationFailed)
            #expect(outcome.debugDescription == "Non-empty localizedReason must be provided.")
            #expect(!outcome.onCallingThread)
            await #expect(throws: LAError.self) {
                try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "")
            }
        }
    }

    @Test func anInvalidatedContextCannotBeEvaluated() async throws {
        let fixture = try EmbeddedFixture(passcode: "1234")
        await fixture.run {
            let context = LAContext()
            context.invalidate()
            context.invalidate()
            let outcome = await evaluate(context, .deviceOwnerAuthentication, reason: "open the vault")
            #expect(outcome.laError?.code == .invalidContext)
            #expect(outcome.code == -10)
            var error: NSError?
            #expect(!context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
            #expect(error?.code == -10)
            do {
                _ = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "open the vault")
                Issue.record("an invalidated context evaluated")
            } catch LAError.invalidContext {
            } catch {
                Issue.record("unexpected \(error)")
            }
            // It never lets an item call prompt.
            #expect(context.authenticationContextReference.interactionNotAllowed)
        }
    }

    @Test func theApplicationPasswordIsSetAndRemoved() async throws {
        let fixture = try EmbeddedFixture()
        await fixture.run {
            let context = LAContext()
            #expect(!context.isCredentialSet(.applicationPassword))
            #expect(context.setCredential(Data("correct horse".utf8), type: .applicationPassword))
            #expect(context.isCredentialSet(.applicationPassword))
            #expect(!context.isCredentialSet(.smartCardPIN))
            #expect(context.setCredential(nil, type: .applicationPassword))
            #expect(!context.isCredentialSet(.applicationPassword))
            // No smart cards on Coffer.
            #expect(!context.setCredential(Data("123456".utf8), type: .smartCardPIN))
            #expect(!context.isCredentialSet(.smartCardPIN))
            // Invalidating forgets the credential; an invalidated context takes none.
            #expect(context.setCredential(Data("correct horse".utf8), type: .applicationPassword))
            context.invalidate()
            #expect(!context.isCredentialSet(.applicationPassword))
            #expect(!context.setCredential(Data("correct horse".utf8), type: .applicationPassword))
        }
    }

    @Test func theReuseDurationIsCappedAtApplesMaximum() async throws {
        let fixture = try EmbeddedFixture()
        await fixture.run {
            let context = LAContext()
            #expect(context.touchIDAuthenticationAllowableReuseDuration == 0)
            context.touchIDAuthenticationAllowableReuseDuration = 42
            #expect(context.touchIDAuthenticationAllowableReuseDuration == 42)
            context.touchIDAuthenticationAllowableReuseDuration = 3600
            #expect(context.touchIDAuthenticationAllowableReuseDuration == 300)
            #expect(context.touchIDAuthenticationAllowableReuseDuration == LATouchIDAuthenticationMaximumAllowableReuseDuration)
            context.touchIDAuthenticationAllowableReuseDuration = -5
            #expect(context.touchIDAuthenticationAllowableReuseDuration == 0)
        }
    }

    @Test func theSettingsAreKept() async throws {
        let fixture = try EmbeddedFixture()
        await fixture.run {
            let context = LAContext()
            #expect(context.localizedReason == "")
            #expect(context.localizedFallbackTitle == nil)
            #expect(context.localizedCancelTitle == nil)
            #expect(!context.interactionNotAllowed)
            context.localizedReason = "read the token"
            context.localizedFallbackTitle = ""
            context.localizedCancelTitle = "Not now"
            context.interactionNotAllowed = true
            #expect(context.localizedReason == "read the token")
            #expect(context.localizedFallbackTitle == "")
            #expect(context.localizedCancelTitle == "Not now")
            #expect(context.interactionNotAllowed)
            #expect(context.authenticationContextReference.interactionNotAllowed)
        }
    }

    @Test func accessControlWithoutConstraintsNeedsNoPrompt() async throws {
        let fixture = try EmbeddedFixture(passcode: "1234")
        try await fixture.run {
            let context = LAContext()
            context.interactionNotAllowed = true
            let open = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [], nil))
            #expect(try await context.evaluateAccessControl(open, operation: .useItem, localizedReason: "read the token"))
            let guarded = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil))
            // Creating an item is not gated by its access control (reference §6.2).
            #expect(try await context.evaluateAccessControl(guarded, operation: .createItem, localizedReason: "store the token"))
            // Reading it is: this context may not prompt.
            let outcome = await withCheckedContinuation { continuation in
                context.evaluateAccessControl(guarded, operation: .useItem, localizedReason: "read the token") { success, error in
                    continuation.resume(returning: (success, (error as? LAError)?.code))
                }
            }
            #expect(outcome.0 == false)
            #expect(outcome.1 == .notInteractive)
        }
    }

    /// A `Security` call carrying a context that may not prompt: the item needs the person, so -25308.
    @Test func anItemCallWithANonInteractiveContextFailsInteractionNotAllowed() async throws {
        let fixture = try EmbeddedFixture(passcode: "1234")
        await fixture.run {
            let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil)
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "la", kSecAttrAccount as String: "token",
                kSecValueData as String: Data("s3cret".utf8), kSecAttrAccessControl as String: access as Any,
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let context = LAContext()
            context.interactionNotAllowed = true
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "la", kSecAttrAccount as String: "token",
                kSecReturnData as String: true, kSecUseAuthenticationContext as String: context,
            ]
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecInteractionNotAllowed)
            #expect(errSecInteractionNotAllowed == -25308)
            #expect(result == nil)
        }
    }
}
