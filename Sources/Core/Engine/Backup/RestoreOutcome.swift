import KeychainModel

/// What ``KeychainEngine/restoreBackup(_:policy:caller:)`` did.
public struct RestoreOutcome: Sendable, Equatable {
    /// What to do with an item whose primary key is taken by a different item.
    public enum Policy: Sendable, Equatable {
        /// The existing item wins.
        case keep
        /// The backup's item wins.
        case replace
        /// Both, where uniqueness allows: a password is restored under its account followed by ` (restored)`.
        case both
    }

    /// What happened to one conflicting item.
    public enum Resolution: Sendable, Equatable {
        case keptExisting, replaced, keptBoth, notRestorable
    }

    /// One conflicting item: its class, a summary for people (non-secret attributes), what happened.
    public struct Conflict: Sendable, Equatable {
        public var itemClass: ItemClass
        public var summary: String
        public var resolution: Resolution
    }

    /// Items added.
    public var added = 0
    /// Items already present and identical.
    public var identical = 0
    /// Items whose primary key was taken by a different item.
    public var conflicts: [Conflict] = []
}
