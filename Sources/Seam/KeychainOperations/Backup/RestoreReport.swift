import KeychainModel

/// What ``Request/restoreBackup(_:)`` did, item by item where there was a conflict.
public struct RestoreReport: Sendable, Equatable {
    /// Items added where no item had their primary key (a copy kept under another account is a conflict, not counted here).
    public var added: Int
    /// Items already present, identical (same attributes and data): nothing to do.
    public var identical: Int
    /// The conflicts: items of the backup whose primary key was taken by a different item.
    public var conflicts: [RestoreConflict]

    /// A report.
    public init(added: Int = 0, identical: Int = 0, conflicts: [RestoreConflict] = []) {
        self.added = added
        self.identical = identical
        self.conflicts = conflicts
    }

    /// How many conflicts ended with `outcome`.
    public func count(_ outcome: RestoreConflict.Outcome) -> Int { conflicts.count { $0.outcome == outcome } }
}

/// An item of the backup whose primary key was taken, and what the policy did.
public struct RestoreConflict: Sendable, Equatable {
    /// The item's class.
    public var itemClass: ItemClass
    /// The item's non-secret identifying attributes, for people (account, service, server, label).
    public var summary: String
    /// What happened.
    public var outcome: Outcome

    /// A conflict.
    public init(itemClass: ItemClass, summary: String, outcome: Outcome) {
        self.itemClass = itemClass
        self.summary = summary
        self.outcome = outcome
    }

    /// What happened to the backup's item.
    public enum Outcome: UInt8, Sendable, Equatable, CaseIterable {
        /// Not restored: the existing item was kept (policy keep).
        case keptExisting = 1
        /// Restored over the existing item (policy replace).
        case replaced = 2
        /// Restored beside the existing item, with another account (policy both).
        case keptBoth = 3
        /// Not restored although policy both asked: uniqueness does not allow two (a certificate or a key).
        case notRestorable = 4
    }
}
