/// What an import did: how many items it found, copied and found already in Coffer, and each item or
/// collection it could not copy, with why. It names items by their object path at the provider, never by a
/// label, an attribute or a secret.
public struct SecretServiceImportReport: Sendable, Equatable {
    /// Something that could not be copied.
    public struct Failure: Sendable, Equatable {
        /// The item's or the collection's object path at the provider.
        public let path: String
        /// Why, for people.
        public let reason: String
    }

    /// The executable of the provider read from, when the bus said which process it is.
    public internal(set) var source: String?
    /// The session algorithm secrets travelled with (`dh-ietf1024-sha256-aes128-cbc-pkcs7` or `plain`).
    public internal(set) var algorithm = ""
    /// The items found in the provider's collections.
    public internal(set) var total = 0
    /// The items stored in Coffer by this run.
    public internal(set) var copied = 0
    /// The items Coffer already held (same owner, attributes and secret).
    public internal(set) var alreadyPresent = 0
    /// The items found that could not be copied.
    public internal(set) var notCopied = 0
    /// What could not be copied: items, and collections whose items could not even be listed.
    public internal(set) var failures: [Failure] = []

    /// The items handled so far, copied or not.
    public var handled: Int { copied + alreadyPresent + notCopied }

    /// Whether everything found is now in Coffer.
    public var isComplete: Bool { failures.isEmpty }

    /// The summary for people: one line of counts, then one line per failure.
    public var summary: [String] {
        let from = source.map { " from \($0)" } ?? ""
        let counts =
            "\(total) item\(total == 1 ? "" : "s") found\(from): \(copied) copied, \(alreadyPresent) already in Coffer, "
            + "\(notCopied) not copied" + (algorithm.isEmpty ? "" : " (secrets read in a \(algorithm) session)")
        return [counts] + failures.map { "not copied: \($0.path): \($0.reason)" }
    }
}
