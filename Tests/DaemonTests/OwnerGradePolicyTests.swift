import CofferTestSupport
import KeychainClient
import KeychainModel
import KeychainOperations
import Testing

@testable import Daemon

/// Which of a trusted front end's calls need the owner's proof through the system daemon, decided from the
/// keychain's state and the connection's; the multi-user tests cross the same boundary with real processes.
@Suite("Owner-grade requests", .timeLimit(.minutes(10)))
struct OwnerGradePolicyTests {
    private typealias Facts = OwnerGradePolicy.Facts

    private static func facts(
        passcode: Bool = true, erased: Bool = false, proven: Bool = false, agent: Bool = false
    ) -> Facts {
        Facts(passcodeSet: passcode, erasedAwaitingPasscode: erased, connectionProven: proven, connectionIsAgent: agent)
    }

    @Test func lockingNeedsTheProofOnceAPasscodeIsSet() {
        #expect(
            OwnerGradePolicy.refusal(for: .lock, facts: Self.facts())
                == .ownerProofRequired(
                    reason: "locking the keychain needs the keychain passcode"))
        #expect(OwnerGradePolicy.refusal(for: .lock, facts: Self.facts(proven: true)) == nil)
        // Without a passcode there is no locked state and no secret to prove.
        #expect(OwnerGradePolicy.refusal(for: .lock, facts: Self.facts(passcode: false)) == nil)
    }

    @Test func aSyncAccountIsManagedOnlyWithTheProofOnceAPasscodeIsSet() {
        #expect(
            OwnerGradePolicy.refusal(for: .syncAccount, facts: Self.facts())
                == .ownerProofRequired(reason: "managing the keychain's sync account needs the keychain passcode"))
        #expect(OwnerGradePolicy.refusal(for: .syncAccount, facts: Self.facts(proven: true)) == nil)
        #expect(OwnerGradePolicy.refusal(for: .syncAccount, facts: Self.facts(passcode: false)) == nil)
        // A prompt agent's connection proved the passcode once, but managing the account asks a connection of its own.
        #expect(OwnerGradePolicy.refusal(for: .syncAccount, facts: Self.facts(agent: true)) != nil)
    }

    @Test func anAgentRegistersOnlyWithTheProof() {
        #expect(
            OwnerGradePolicy.refusal(for: .awaitPrompt, facts: Self.facts())
                == .ownerProofRequired(
                    reason: "a prompt agent starts with the keychain passcode"))
        #expect(OwnerGradePolicy.refusal(for: .awaitPrompt, facts: Self.facts(proven: true)) == nil)
        // The registered agent's next standing requests need nothing more.
        #expect(OwnerGradePolicy.refusal(for: .awaitPrompt, facts: Self.facts(agent: true)) == nil)
        #expect(OwnerGradePolicy.refusal(for: .awaitPrompt, facts: Self.facts(passcode: false)) == nil)
    }

    @Test func afterAnEraseOnlyTheAgentOfTheMomentChoosesThePasscode() {
        let erased = Self.facts(passcode: false, erased: true)
        guard case .notPermitted(let reason) = OwnerGradePolicy.refusal(for: .setPasscode, facts: erased) else {
            Issue.record("a new passcode from another connection was not refused")
            return
        }
        #expect(reason.contains("its new passcode is chosen at the prompt agent that was running then"))
        #expect(OwnerGradePolicy.refusal(for: .awaitPrompt, facts: erased) == .notPermitted(reason: reason))
        #expect(OwnerGradePolicy.refusal(for: .setPasscode, facts: Self.facts(passcode: false, erased: true, agent: true)) == nil)
        // A first passcode on a keychain that was never erased is anyone's to set, as at setup.
        #expect(OwnerGradePolicy.refusal(for: .setPasscode, facts: Self.facts(passcode: false)) == nil)
    }

    @Test func itemsAndTheOtherCallsAreNotJudgedHere() {
        for kind in Request.Kind.allCases where !OwnerGradePolicy.isOwnerGrade(kind) {
            #expect(OwnerGradePolicy.refusal(for: kind, facts: Self.facts()) == nil)
        }
        #expect(Set(Request.Kind.allCases.filter(OwnerGradePolicy.isOwnerGrade)) == [.lock, .awaitPrompt, .setPasscode, .syncAccount])
    }
}

/// The owner's groups are never a program's: the registry refuses them, through the daemon.
@Suite("The owner's groups in the registry", .timeLimit(.minutes(10)))
struct OwnerGroupRegistrationTests {
    @Test func noProgramIsRegisteredWithAnOwnersGroup() async throws {
        let temporary = try TemporaryDaemon()
        let passcode = SecretBytes(copying: Array("1234".utf8))
        try await temporary.client.send(.setPasscode(new: passcode)).keystoreResult()
        let registration = AppRegistration(
            executablePath: "/usr/bin/true", applicationIdentifier: "TEAM.true", accessGroups: ["TEAM.true", OwnerAccessGroups.sshAgent],
            pinsExecutableHash: false, mode: .path)
        let answer = await temporary.client.send(.appsAdd(registration, passcode: passcode))
        #expect(answer == .failure(.param, reason: "coffer.owner.ssh-agent is the keychain owner's group; no program may be registered with it"))
        #expect(try temporary.client.sendBlocking(.appsList).appsResult().isEmpty)
    }
}
