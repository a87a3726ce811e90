/// The prompts handed out and not yet completed, by id. Confined to the bus thread.
struct PromptTable: Sendable {
    /// What a prompt does when the client calls `Prompt`.
    enum Action: Sendable {
        /// Unlocks the keychain; the objects are those the `Unlock` call named.
        case unlock([String])
    }

    private var prompts: [String: Action] = [:]
    private var nextNumber: UInt64 = 1

    /// Adds a prompt and returns its id.
    mutating func add(_ action: Action) -> String {
        let id = "p\(nextNumber)"
        nextNumber += 1
        prompts[id] = action
        return id
    }

    /// Whether the prompt `id` is pending.
    func contains(_ id: String) -> Bool { prompts[id] != nil }

    /// The prompt `id`'s action, when pending.
    func action(_ id: String) -> Action? { prompts[id] }

    /// Removes the prompt `id` and returns its action.
    mutating func remove(_ id: String) -> Action? { prompts.removeValue(forKey: id) }
}
