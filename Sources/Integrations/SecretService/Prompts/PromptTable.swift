/// The prompts handed out and not yet completed, by id. Confined to the bus thread.
struct PromptTable: Sendable {
    /// What a prompt does when the client calls `Prompt`.
    enum Action: Sendable {
        /// Unlocks the keychain; the objects are those the `Unlock` call named.
        case unlock([String])
    }

    private var prompts: [String: (action: Action, owner: String)] = [:]
    private var nextNumber: UInt64 = 1

    /// Adds a prompt for the client `owner` (its unique bus name) and returns its id.
    mutating func add(_ action: Action, owner: String) -> String {
        let id = "p\(nextNumber)"
        nextNumber += 1
        prompts[id] = (action, owner)
        return id
    }

    /// Whether the prompt `id` is pending.
    func contains(_ id: String) -> Bool { prompts[id] != nil }

    /// The prompt `id`'s action, when pending.
    func action(_ id: String) -> Action? { prompts[id]?.action }

    /// Removes the prompt `id` and returns its action.
    mutating func remove(_ id: String) -> Action? { prompts.removeValue(forKey: id)?.action }

    /// Withdraws the prompts of a client that left the bus: one running completes unseen.
    mutating func withdraw(ownedBy owner: String) {
        prompts = prompts.filter { $0.value.owner != owner }
    }
}
