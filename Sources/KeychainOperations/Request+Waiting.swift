extension Request.Kind {
    /// Whether a request of this kind may wait for a person before it is answered, so that a client must
    /// give it a long reply time-out rather than treat a slow answer as a stalled daemon.
    ///
    /// These are the requests that carry or will ask for the keychain passcode: unlocking, the passcode
    /// changes and the registry edits, which are to be answered through a trusted prompt (the user types
    /// the passcode there, as on iOS), and which the keystore may hold for the failed-attempt delay.
    /// Item requests are answered without a person today; when access-control prompts come, the item
    /// requests that ask for one join this list.
    public var mayWaitForPerson: Bool {
        switch self {
        case .unlock, .setPasscode, .changePasscode, .removePasscode, .setEraseAfterFailedAttempts, .appsAdd, .appsRemove,
            .unlockWithPrompt, .awaitPrompt, .answerPrompt:
            true
        case .add, .copyMatching, .update, .delete, .lockStatus, .lock, .appsList:
            false
        }
    }
}
