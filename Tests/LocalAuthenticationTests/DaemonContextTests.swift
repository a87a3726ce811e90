import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations
import LocalAuthentication
import Query
import Testing

/// `LAContext` through `cofferd`: the daemon asks the session's prompt agent (played here by a second
/// connection sending `awaitPrompt` and `answerPrompt`), and keeps the proof for the program's connection.
@Suite("LAContext through the daemon", .serialized, .timeLimit(.minutes(10)))
struct DaemonContextTests {
    @Test func theRightPasscodeAtTheAgentProvesPresence() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            let context = LAContext()
            var error: NSError?
            #expect(context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
            async let outcome = evaluateOnceTheAgentListens(context, .deviceOwnerAuthentication, reason: "open the vault")
            let prompt = try await fixture.nextPrompt()
            #expect(prompt.purpose == .authenticate)
            #expect(prompt.reason == "open the vault")
            #expect(prompt.message.contains("open the vault"))
            #expect(await fixture.answer(prompt, with: DaemonFixture.passcode) == .status(.success))
            let result = await outcome
            #expect(result.success)
            #expect(result.error == nil)
            #expect(!result.onCallingThread)
        }
    }

    @Test func theAsyncFormReturnsTrue() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            let context = LAContext()
            // Registers the agent first: a prompt it cancels.
            async let first = evaluateOnceTheAgentListens(context, .deviceOwnerAuthentication, reason: "first")
            _ = await fixture.answer(try await fixture.nextPrompt(), with: nil)
            #expect(await first.laError?.code == .userCancel)
            async let evaluated = context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "open the vault")
            let prompt = try await fixture.nextPrompt()
            _ = await fixture.answer(prompt, with: DaemonFixture.passcode)
            #expect(try await evaluated)
        }
    }

    @Test func threeWrongPasscodesFailTheAuthentication() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            let context = LAContext()
            async let outcome = evaluateOnceTheAgentListens(context, .deviceOwnerAuthentication, reason: "open the vault")
            let prompt = try await fixture.nextPrompt()
            for _ in 0..<3 {
                guard case .keystoreError = await fixture.answer(prompt, with: "0000") else {
                    Issue.record("a wrong passcode was accepted")
                    return
                }
            }
            let result = await outcome
            #expect(!result.success)
            #expect(result.laError?.code == .authenticationFailed)
            #expect(result.code == -1)
        }
    }

    @Test func thePersonCancelling() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            let context = LAContext()
            async let outcome = evaluateOnceTheAgentListens(context, .deviceOwnerAuthentication, reason: "open the vault")
            let prompt = try await fixture.nextPrompt()
            #expect(await fixture.answer(prompt, with: nil) == .status(.success))
            let result = await outcome
            #expect(result.laError?.code == .userCancel)
            #expect(result.code == -2)
            do {
                throw try #require(result.error)
            } catch LAError.userCancel {
            }
        }
    }

    @Test func withoutAnAgentNobodyCanBeAsked() async throws {
        let fixture = try DaemonFixture()
        await fixture.run {
            let outcome = await evaluate(LAContext(), .deviceOwnerAuthentication, reason: "open the vault")
            #expect(outcome.laError?.code == .notInteractive)
            #expect(outcome.code == -1004)
            #expect(outcome.debugDescription?.hasPrefix("no prompt agent") == true)
        }
    }

    @Test func withoutAPasscodeTheDaemonAnswersPasscodeNotSet() async throws {
        let fixture = try DaemonFixture(passcode: nil)
        await fixture.run {
            let context = LAContext()
            var error: NSError?
            #expect(!context.canEvaluatePolicy(.deviceOwnerAuthentication, error: &error))
            #expect(error?.code == -5)
            #expect(await evaluate(context, .deviceOwnerAuthentication, reason: "open the vault").code == -5)
        }
    }

    @Test func anEvaluatedContextIsReusedWithoutAPrompt() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            let context = LAContext()
            async let outcome = evaluateOnceTheAgentListens(context, .deviceOwnerAuthentication, reason: "open the vault")
            _ = await fixture.answer(try await fixture.nextPrompt(), with: DaemonFixture.passcode)
            #expect(await outcome.success)
            let prompts = fixture.cancelEveryPrompt()
            let again = await within(.seconds(20)) { await evaluate(context, .deviceOwnerAuthentication, reason: "again") }
            #expect(again?.success == true)
            #expect(prompts.value == 0)
            // Another context has no proof: the agent is asked (and cancels).
            let other = await within(.seconds(20)) { await evaluate(LAContext(), .deviceOwnerAuthentication, reason: "other") }
            #expect(other?.laError?.code == .userCancel)
            #expect(prompts.value == 1)
        }
    }

    @Test func invalidatingDropsTheProof() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            let context = LAContext()
            async let outcome = evaluateOnceTheAgentListens(context, .deviceOwnerAuthentication, reason: "open the vault")
            _ = await fixture.answer(try await fixture.nextPrompt(), with: DaemonFixture.passcode)
            #expect(await outcome.success)
            let reference = context.authenticationContextReference
            let presence = AuthenticationRequest(
                context: reference.context, requirement: AuthenticationRequirement(factors: [.presence]), reason: "check",
                interactive: false)
            #expect(await fixture.client.send(.authenticate(presence)) == .status(.success))
            context.invalidate()
            // The keychain has forgotten the proof: the same context identifier needs the person again.
            guard case .authenticationFailure(let failure) = await fixture.client.send(.authenticate(presence)) else {
                Issue.record("the proof outlived invalidate()")
                return
            }
            #expect(failure.code == .notInteractive)
            #expect(await evaluate(context, .deviceOwnerAuthentication, reason: "again").laError?.code == .invalidContext)
        }
    }

    /// Apple: invalidating stops pending evaluations with `appCancel`.
    @Test func invalidatingDuringAnEvaluationCancelsIt() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            let context = LAContext()
            async let outcome = evaluateOnceTheAgentListens(context, .deviceOwnerAuthentication, reason: "open the vault")
            let prompt = try await fixture.nextPrompt()
            context.invalidate()
            let result = await outcome
            #expect(result.laError?.code == .appCancel)
            #expect(result.code == -9)
            // The person's late answer changes nothing.
            _ = await fixture.answer(prompt, with: DaemonFixture.passcode)
            #expect(await evaluate(context, .deviceOwnerAuthentication, reason: "again").laError?.code == .invalidContext)
        }
    }

    @Test func cancellingTheTaskEndsTheEvaluationWithAppCancel() async throws {
        let fixture = try DaemonFixture()
        try await fixture.run {
            let context = LAContext()
            // Registers the agent first: a prompt it cancels.
            async let first = evaluateOnceTheAgentListens(context, .deviceOwnerAuthentication, reason: "first")
            _ = await fixture.answer(try await fixture.nextPrompt(), with: nil)
            _ = await first
            let task = Task { try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "open the vault") }
            let prompt = try await fixture.nextPrompt()
            task.cancel()
            do {
                _ = try await task.value
                Issue.record("a cancelled evaluation succeeded")
            } catch LAError.appCancel {
            }
            _ = await fixture.answer(prompt, with: nil)
        }
    }
}
