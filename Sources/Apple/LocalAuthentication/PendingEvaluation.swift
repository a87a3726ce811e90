/// An evaluation under way: who hears its outcome, and the task waiting for the keychain.
struct PendingEvaluation {
    /// Called once with the outcome: the keychain's, or ``LAError/Code/appCancel`` when the context is
    /// invalidated (or the caller's task cancelled) first.
    let finish: @Sendable (Result<Void, LAError>) -> Void
    /// The task that waits for the keychain's answer, once started.
    var task: Task<Void, Never>?
}
