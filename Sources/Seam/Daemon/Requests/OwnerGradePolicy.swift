import KeychainModel
import KeychainOperations

/// Which of a trusted front end's requests only the keychain's owner may make, and what proves the owner.
///
/// The `coffer` command is trusted, but any program of the user can run it; so what only the person may do
/// needs what only the person knows. Registry edits and the erase setting carry the passcode themselves.
/// Locking and starting the prompt agent (whose answers count toward the erase) need a connection that
/// proved the passcode with ``Request/proveOwner(passcode:)``; so does a sync account's management (joining an account,
/// approving a device, removing one, leaving), which decides who else reads the keychain's synchronizable items. Without a passcode there is no secret to
/// prove, and these stay open to the user's programs, with one exception: after too many wrong passcodes
/// erased the keychain, the new passcode comes only from the prompt agent that was running then, which had
/// proved the old one, and no other agent may start until it has.
enum OwnerGradePolicy {
    /// What the daemon knows when it judges a request.
    struct Facts: Sendable, Equatable {
        /// Whether the keychain has a passcode.
        var passcodeSet: Bool
        /// Whether the keychain was erased after too many wrong passcodes and has no passcode yet.
        var erasedAwaitingPasscode: Bool
        /// Whether the request's connection proved the passcode.
        var connectionProven: Bool
        /// Whether the request's connection is the user's registered prompt agent.
        var connectionIsAgent: Bool
    }

    /// Whether judging `kind` needs ``Facts/erasedAwaitingPasscode`` (which reads the keybag).
    static func needsErasedState(_ kind: Request.Kind) -> Bool {
        kind == .awaitPrompt || kind == .setPasscode
    }

    /// Whether `kind` is judged here at all.
    static func isOwnerGrade(_ kind: Request.Kind) -> Bool {
        kind == .lock || kind == .syncAccount || needsErasedState(kind)
    }

    /// Why the request may not go on, or nil when it may.
    static func refusal(for kind: Request.Kind, facts: Facts) -> KeystoreError? {
        switch kind {
        case .lock:
            guard facts.passcodeSet, !facts.connectionProven else { return nil }
            return .ownerProofRequired(reason: "locking the keychain needs the keychain passcode")
        case .syncAccount:
            guard facts.passcodeSet, !facts.connectionProven else { return nil }
            return .ownerProofRequired(reason: "managing the keychain's sync account needs the keychain passcode")
        case .awaitPrompt:
            if facts.connectionIsAgent || facts.connectionProven { return nil }
            if facts.passcodeSet {
                return .ownerProofRequired(reason: "a prompt agent starts with the keychain passcode")
            }
            guard facts.erasedAwaitingPasscode else { return nil }
            return .notPermitted(reason: Self.erasedExplanation)
        case .setPasscode:
            guard facts.erasedAwaitingPasscode, !facts.connectionIsAgent else { return nil }
            return .notPermitted(reason: Self.erasedExplanation)
        default:
            return nil
        }
    }

    private static let erasedExplanation =
        "too many wrong passcodes erased this keychain; its new passcode is chosen at the prompt agent that was running then. If that agent has stopped, an administrator removes the erased keychain's folder so that the daemon starts a new one"
}
