import Dispatch
import Foundation
import KeychainModel
import KeychainOperations
import Query
import Synchronization
import Testing
import KeychainService

/// `kSecUseAuthenticationContext`: an evaluated context serves later calls without a prompt for its
/// lifetime (the reuse duration, §6.5), until invalidated; proofs belong to their session only.
@Suite("Access control: authentication contexts", .timeLimit(.minutes(10)))
struct AuthenticationContextTests {
    private typealias K = ProtectedKeychain

    private static func presence(_ context: AuthenticationContextID, reuse: Duration = .zero) -> Request {
        .authenticate(
            AuthenticationRequest(
                context: context, requirement: AuthenticationRequirement(factors: [.presence]), reason: "Sign in",
                reuseDuration: reuse))
    }

    @Test func anEvaluatedContextOpensItemsWithoutAnotherPrompt() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.userPresence)])
        let context = AuthenticationContextID.random()
        keychain.prompter.willAnswer(.passcode("1234"))
        #expect(keychain.send(Self.presence(context)) == .status(.success))
        #expect(keychain.find("a", K.using(context)).text == "secret")
        #expect(keychain.find("a", K.using(context)).text == "secret")
        #expect(keychain.prompter.reasonsAsked == ["Sign in"])
        // Even a context that may not interact opens it: nothing needs asking.
        #expect(keychain.find("a", K.using(context, interactionNotAllowed: true)).text == "secret")
    }

    @Test func aProofLastsItsReuseDurationThenTheContextAsksAgain() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.devicePasscode)])
        let context = AuthenticationContextID.random()
        keychain.prompter.willAnswer(.passcode("1234"))
        #expect(keychain.send(Self.presence(context, reuse: .seconds(60))) == .status(.success))
        keychain.clock.advance(by: .seconds(59))
        #expect(keychain.find("a", K.using(context, interactionNotAllowed: true)).text == "secret")
        keychain.clock.advance(by: .seconds(2))
        #expect(keychain.find("a", K.using(context, interactionNotAllowed: true)).itemStatus == -25308)
        keychain.prompter.willAnswer(.passcode("1234"))
        #expect(keychain.find("a", K.using(context)).text == "secret")
        #expect(keychain.prompter.reasonsAsked.count == 2)
    }

    @Test func noReuseStillServesTheCallsThatFollowThenEnds() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.userPresence)])
        let context = AuthenticationContextID.random()
        keychain.prompter.willAnswer(.passcode("1234"))
        #expect(keychain.send(Self.presence(context)) == .status(.success))
        keychain.clock.advance(by: AuthenticationLifetime.minimum - .seconds(1))
        #expect(keychain.find("a", K.using(context, interactionNotAllowed: true)).text == "secret")
        keychain.clock.advance(by: .seconds(2))
        #expect(keychain.find("a", K.using(context, interactionNotAllowed: true)).itemStatus == -25308)
    }

    @Test func theReuseDurationIsCappedAtFiveMinutes() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.userPresence)])
        let context = AuthenticationContextID.random()
        keychain.prompter.willAnswer(.passcode("1234"))
        #expect(keychain.send(Self.presence(context, reuse: .seconds(3600))) == .status(.success))
        keychain.clock.advance(by: .seconds(301))
        #expect(keychain.find("a", K.using(context, interactionNotAllowed: true)).itemStatus == -25308)
    }

    @Test func invalidatingTheContextForgetsItsProof() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.userPresence)])
        let context = AuthenticationContextID.random()
        keychain.prompter.willAnswer(.passcode("1234"))
        #expect(keychain.send(Self.presence(context, reuse: .seconds(300))) == .status(.success))
        #expect(keychain.send(.invalidateContext(context)) == .status(.success))
        #expect(keychain.find("a", K.using(context, interactionNotAllowed: true)).itemStatus == -25308)
    }

    @Test func anotherSessionCannotUseTheProof() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.userPresence)])
        let context = AuthenticationContextID.random()
        keychain.prompter.willAnswer(.passcode("1234"))
        #expect(keychain.send(Self.presence(context, reuse: .seconds(300))) == .status(.success))
        // The same context identifier, from another connection.
        let other = AuthenticationSetting(session: 7, requester: "another program", prompter: nil)
        let query = QueryDictionary([
            .string(QueryKey.itemClass): .string(QueryConstant.classGenericPassword), .string(QueryKey.account): "a",
            .string(QueryKey.returnData): true, .string(QueryKey.useAuthenticationContext): AuthenticationContextReference(context: context).keychainValue,
        ])
        let answered = DispatchSemaphore(value: 0)
        let answer = Mutex<Response?>(nil)
        keychain.service.handle(.copyMatching(query), caller: keychain.caller, setting: other) { response in
            answer.withLock { $0 = response }
            answered.signal()
        }
        #expect(answered.wait(timeout: .now() + 30) == .success)
        #expect(answer.withLock { $0 } == .authenticationNeeded(AuthenticationRequirement(factors: [.presence])))
        // Its end forgets its proofs, not others'.
        keychain.service.endSession(7)
        #expect(keychain.find("a", K.using(context, interactionNotAllowed: true)).text == "secret")
    }

    @Test func aContextThatMayNotInteractFailsAuthenticationAsNotInteractive() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        let request = AuthenticationRequest(
            context: .random(), requirement: AuthenticationRequirement(factors: [.presence]), reason: "x", interactive: false)
        guard case .authenticationFailure(let failure) = keychain.send(.authenticate(request)) else {
            Issue.record("expected a failure"); return
        }
        #expect(failure.code == .notInteractive)
        #expect(failure.status == .interactionNotAllowed)
    }

    @Test func withoutAPasscodeThePolicyFailsPasscodeNotSet() throws {
        let keychain = try ProtectedKeychain(passcode: nil, biometry: FakeBiometry(.notAvailable(reason: "none")))
        defer { keychain.remove() }
        guard case .authenticationFailure(let failure) = keychain.send(Self.presence(.random())) else {
            Issue.record("expected a failure"); return
        }
        #expect(failure.code == .passcodeNotSet)
        #expect(
            try keychain.send(.authenticationCapabilities).capabilitiesResult()
                == AuthenticationCapabilities(passcodeSet: false, biometry: .notAvailable(reason: "none")))
    }
}

/// A connection cannot grow the keychain's memory without bound by making contexts.
@Suite("Access control: bounded contexts", .timeLimit(.minutes(10)))
struct BoundedContextTests {
    @Test func aSessionKeepsAtMostSixtyFourContextsDroppingTheStalest() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        let first = AuthenticationContextID.random()
        _ = keychain.send(.setCredential(context: first, applicationPassword: SecretBytes(copying: [1])))
        for _ in 0..<1_000 {
            keychain.clock.advance(by: .milliseconds(1))
            _ = keychain.send(.setCredential(context: .random(), applicationPassword: SecretBytes(copying: [2])))
        }
        #expect(keychain.service.authenticationContextCount(session: 0) == 64)
    }
}
