extension Request.Kind {
    /// Whether a request of this kind may wait for a person before it is answered, so that a client must
    /// give it a long reply time-out rather than treat a slow answer as a stalled daemon.
    ///
    /// These are the requests that carry or will ask for the keychain passcode: unlocking, the passcode
    /// changes and the registry edits, which are to be answered through a trusted prompt (the user types
    /// the passcode there, as on iOS), and which the keystore may hold for the failed-attempt delay.
    /// Item requests never wait: an item that needs the person is answered with
    /// ``Response/authenticationNeeded(_:)``, and the client's ``authenticate`` request is what waits.
    /// A backup's export carries the passcode too, and an export, a restore or a bulk add of many items takes seconds.
    public var mayWaitForPerson: Bool {
        switch self {
        case .unlock, .setPasscode, .changePasscode, .removePasscode, .setEraseAfterFailedAttempts, .appsAdd, .appsRemove,
            .unlockWithPrompt, .awaitPrompt, .answerPrompt, .proveOwner, .proveOwnerWithPrompt, .authenticate, .exportBackup, .restoreBackup,
            .addEach:
            true
        case .add, .copyMatching, .update, .delete, .lockStatus, .lock, .appsList, .setCredential, .invalidateContext, .authenticationCapabilities,
            .createTokenKey, .useTokenKey, .makeFileKey, .unwrapFileKey, .stageRestore:
            false
        }
    }
}
