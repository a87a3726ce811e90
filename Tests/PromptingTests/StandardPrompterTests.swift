import Foundation
import Prompting
import Testing

/// Which prompter a process uses when it is not told: the terminal, else COFFER_PINENTRY, else `pinentry`
/// on `PATH`.
@Suite("The standard prompter", .timeLimit(.minutes(10)))
struct StandardPrompterTests {
    @Test func aTerminalComesFirst() {
        let hasTerminal = TerminalPasscodeReader.isAvailable
        let prompter = PasscodePrompter.standard(environment: ["COFFER_PINENTRY": "/usr/bin/pinentry-example"])
        #expect((prompter?.method == .terminal) == hasTerminal)
    }

    // The rest holds only without a controlling terminal, as under CI and `swift test` from a service; run
    // from an interactive shell, the terminal wins and these are skipped rather than faked.
    @Test(.enabled(if: !TerminalPasscodeReader.isAvailable, "this process has a controlling terminal, which comes first"))
    func withoutATerminalCofferPinentryIsUsed() {
        let prompter = PasscodePrompter.standard(environment: ["COFFER_PINENTRY": "/opt/example/pinentry-example", "PATH": "/usr/bin:/bin"])
        #expect(prompter?.method == .pinentry(program: "/opt/example/pinentry-example"))
    }

    @Test(.enabled(if: !TerminalPasscodeReader.isAvailable, "this process has a controlling terminal, which comes first"))
    func aNameInCofferPinentryIsLookedUpOnPath() throws {
        let scripted = try ScriptedPinentry(getPin: .cancel)
        defer { scripted.remove() }
        let program = try scripted.addProgram(named: "pinentry-example")
        let prompter = PasscodePrompter.standard(environment: ["COFFER_PINENTRY": "pinentry-example", "PATH": "/nonexistent:\(scripted.folder.path)"])
        #expect(prompter?.method == .pinentry(program: program))
    }

    @Test(.enabled(if: !TerminalPasscodeReader.isAvailable, "this process has a controlling terminal, which comes first"))
    func otherwisePinentryOnPath() throws {
        let scripted = try ScriptedPinentry(getPin: .cancel)
        defer { scripted.remove() }
        // The scripted program is called "pinentry".
        let prompter = PasscodePrompter.standard(environment: ["PATH": "/nonexistent:\(scripted.folder.path)"])
        #expect(prompter?.method == .pinentry(program: scripted.path))
    }

    @Test(.enabled(if: !TerminalPasscodeReader.isAvailable, "this process has a controlling terminal, which comes first"))
    func noneWithoutTerminalOrPinentry() throws {
        #expect(PasscodePrompter.standard(environment: ["PATH": "/nonexistent"]) == nil)
    }
}
