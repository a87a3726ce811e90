import Foundation
import KeychainModel
import Prompting
import Testing

/// Asking the person to allow something (`coffer ssh-agent`'s `ssh-add -c` keys): pinentry's `CONFIRM` dialog.
@Suite("Confirming through pinentry", .timeLimit(.minutes(10)))
struct PinentryConfirmTests {
    private static let question = PasscodeQuestion(
        title: "coffer ssh-agent", description: "Allow use of the SSH key laptop?", timeout: .seconds(30))

    @Test func anAllowedDialogReturnsAndAsksForNoPasscode() throws {
        let pinentry = try ScriptedPinentry(getPin: .answer("never sent"))
        defer { pinentry.remove() }
        try PasscodePrompter(method: .pinentry(program: pinentry.path)).confirm(Self.question)
        #expect(pinentry.commands.contains("CONFIRM"))
        #expect(pinentry.commands.contains("SETDESC Allow use of the SSH key laptop?"))
        #expect(!pinentry.commands.contains("GETPIN"))
        #expect(pinentry.wasReaped)
    }

    @Test func aRefusedDialogIsCancelled() throws {
        let pinentry = try ScriptedPinentry(getPin: .answer("never sent"))
        defer { pinentry.remove() }
        let refusing = try pinentry.addProgram(
            named: "refusing",
            body: """
                #!/bin/sh
                echo 'OK Pleased to meet you'
                while IFS= read -r line; do
                  case "$line" in
                    CONFIRM) echo 'ERR 83886179 Operation cancelled <Pinentry>';;
                    BYE) echo OK; exit 0;;
                    *) echo OK;;
                  esac
                done

                """)
        #expect(throws: PromptFailure.cancelled) {
            try PasscodePrompter(method: .pinentry(program: refusing)).confirm(Self.question)
        }
    }
}
