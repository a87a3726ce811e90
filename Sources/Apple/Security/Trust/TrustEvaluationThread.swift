import CofferRuntime

/// The thread trust evaluations run on: a ``SerialTaskExecutor`` of its own, so that Apple's synchronous
/// ``SecTrustEvaluateWithError(_:_:)`` can wait for swift-certificates' `async` verifier without needing Swift's
/// cooperative pool (the verifier and its policies are isolated to no actor, so all of it runs there).
enum TrustEvaluationThread {
    /// The one executor of the process; its thread is `coffer-trust`.
    static let shared = SerialTaskExecutor(threadName: "coffer-trust")
}
