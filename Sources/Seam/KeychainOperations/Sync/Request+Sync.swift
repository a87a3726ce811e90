extension Request {
    /// The longest the daemon holds a ``syncState(changedFrom:)`` that names a state before answering with the
    /// same state.
    public static let syncStateWaitLimit: Duration = .seconds(30)
}
