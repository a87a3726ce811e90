import KeychainOperations

/// What ``Keychain/restore(from:protection:policy:filesTo:progress:)`` did: the items' report, and each
/// protected file of the backup. The items' counts read through it as through ``RestoreReport``
/// (`report.added`, `report.conflicts`, `report.count(.replaced)`).
@dynamicMemberLookup
public struct BackupRestoreReport: Sendable, Equatable {
    /// The items: added, identical, and the conflicts with what the policy did.
    public var items: RestoreReport
    /// The protected files, in the backup's order (none for a backup without files).
    public var files: [RestoredFile]

    /// A report.
    public init(items: RestoreReport, files: [RestoredFile] = []) {
        self.items = items
        self.files = files
    }

    /// A property of the items' report.
    public subscript<Value>(dynamicMember keyPath: KeyPath<RestoreReport, Value>) -> Value { items[keyPath: keyPath] }

    /// How many item conflicts ended with `outcome`.
    public func count(_ outcome: RestoreConflict.Outcome) -> Int { items.count(outcome) }

    /// How many files ended with `outcome`.
    public func fileCount(_ outcome: RestoredFile.Outcome) -> Int { files.count { $0.outcome == outcome } }
}
