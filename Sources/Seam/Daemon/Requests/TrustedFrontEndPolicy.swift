import KeychainOperations

/// Which requests only a trusted front end may make through the daemon.
///
/// As on iOS, where no app ever sees the device passcode: a passcode reaches the daemon only from the
/// `coffer` command (installed with a group of its own) or from its prompt agent, and the same goes for
/// locking and for editing the program registry. Any program may read the lock state, list the registry,
/// use its items, and ask the person to unlock through the prompt agent (``Request/unlockWithPrompt``).
enum TrustedFrontEndPolicy {
    /// Whether `kind` is reserved to trusted front ends (``OperationTraits/isReservedToTrustedFrontEnds``).
    static func isReserved(_ kind: Request.Kind) -> Bool { kind.traits.isReservedToTrustedFrontEnds }

    /// The refusal a program gets for a reserved request.
    static func refusal(for kind: Request.Kind) -> Response {
        let what: String
        switch kind {
        case .appsAdd, .appsRemove: what = "change the program registry"
        case .lock: what = "lock the keychain"
        case .awaitPrompt, .answerPrompt: what = "act as the prompt agent"
        case .exportBackup: what = "export a backup of the keychain"
        default: what = "send the keychain passcode"
        }
        return .keystoreError(
            .notPermitted(
                reason: "only the coffer command and its prompt agent may \(what); a program asks the person to unlock with a prompt"))
    }
}
