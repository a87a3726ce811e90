import Foundation
import Testing
import TestProcesses

/// A key that never leaves and whose access control asks for the person (`userPresence`): every signature through the
/// agent asks for the keychain passcode, here through cofferd's prompt agent (`coffer prompt-agent --pinentry`) and
/// the harness's scripted pinentry, so it works headless; a cancelled prompt is a refused signature.
@Suite(.timeLimit(.minutes(5)))
struct AgentUserPresenceTests {
    @Test(arguments: ["ec", "ed25519"])
    func aKeyThatAsksForThePersonSignsOnlyOnceThePasscodeIsGivenAndAsksAtEveryUse(type: String) throws {
        let harness = try AgentHarness(transport: .daemon)
        let coffer = AgentHarness.executable("coffer")
        #expect(try harness.run([coffer, "passcode", "set"], input: "1234\n").status == 0)
        let made = try harness.coffer([
            "create-key", "--ssh", "-t", type, "-l", "presence-\(type)", "--access-control", "privateKeyUsage,userPresence",
        ])
        #expect(made.status == 0, "\(made.errors)")
        let publicKey = harness.path("presence-\(type).pub")
        try Data(made.output.utf8).write(to: URL(fileURLWithPath: publicKey))
        #expect(try harness.run(["ssh-add", "-L"]).output == made.output, "listed without asking anyone")

        let promptAgent = try ChildProcess(
            [coffer, "prompt-agent", "--pinentry", harness.path("pinentry")], environment: harness.environment, output: .null, errors: .null)
        defer { _ = promptAgent.terminate() }
        try harness.answerPasscode("1234")
        // The prompt agent registers with cofferd shortly after it starts: until then the signature is refused.
        var verified = try harness.signAndVerify(publicKey: publicKey)
        for _ in 0..<200 where verified.status != 0 {
            usleep(25_000)
            verified = try harness.signAndVerify(publicKey: publicKey)
        }
        #expect(verified.status == 0, "\(verified.errors)")
        #expect(verified.output.contains("Good \"file\" signature for tester@example.com"))

        let asked = harness.passcodePrompts
        #expect(try harness.signAndVerify(publicKey: publicKey).status == 0)
        #expect(harness.passcodePrompts == asked + 1, "one question per signature")

        try harness.answerPasscode("CANCEL")
        let refused = try harness.signAndVerify(publicKey: publicKey)
        #expect(refused.status != 0)
        #expect(harness.passcodePrompts == asked + 2)
    }
}

extension AgentHarness {
    /// What the scripted pinentry answers a passcode prompt with from now on (`CANCEL`: it cancels).
    func answerPasscode(_ answer: String) throws {
        try Data(answer.utf8).write(to: URL(fileURLWithPath: path("pin")))
    }

    /// How many prompts the scripted pinentry has shown (its `SETDESC` lines).
    var passcodePrompts: Int {
        ((try? String(contentsOfFile: path("pinentry.log"), encoding: .utf8)) ?? "").split(separator: "\n").count
    }
}
