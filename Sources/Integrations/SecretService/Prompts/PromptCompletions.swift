import Synchronization

/// Prompt results that other threads hand to the bus thread: the person's answer arrives on the thread
/// that asked, and only the bus thread may send the `Completed` signal.
final class PromptCompletions: Sendable {
    /// One finished prompt.
    struct Completion: Sendable {
        /// The prompt's id.
        let id: String
        /// Whether the person did what was asked (false: dismissed, refused or failed).
        let done: Bool
    }

    private let pending = Mutex<[Completion]>([])

    /// Hands over a finished prompt.
    func post(_ completion: Completion) {
        pending.withLock { $0.append(completion) }
    }

    /// Takes every completion handed over so far.
    func take() -> [Completion] {
        pending.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
    }
}
