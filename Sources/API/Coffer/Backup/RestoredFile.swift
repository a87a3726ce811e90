import Foundation

/// A protected file of a backup, and what a restore did with it.
public struct RestoredFile: Sendable, Equatable {
    /// The path the file was backed up from.
    public var path: String
    /// Where the restore wrote it, or the existing file it kept (``Outcome/keptExisting``).
    public var destination: String
    /// The file's protection, as it was backed up and as it is restored.
    public var protection: FileProtectionType
    /// The content's length in bytes.
    public var length: Int
    /// What happened.
    public var outcome: Outcome

    /// A restored file.
    public init(path: String, destination: String, protection: FileProtectionType, length: Int, outcome: Outcome) {
        self.path = path
        self.destination = destination
        self.protection = protection
        self.length = length
        self.outcome = outcome
    }

    /// Whether both name the same file, protection and outcome (`FileProtectionType` compared by its raw value).
    public static func == (lhs: RestoredFile, rhs: RestoredFile) -> Bool {
        lhs.path == rhs.path && lhs.destination == rhs.destination && lhs.protection.rawValue == rhs.protection.rawValue
            && lhs.length == rhs.length && lhs.outcome == rhs.outcome
    }

    /// What happened to the backup's file; every case but ``restored`` is a conflict (a file was there).
    public enum Outcome: Sendable, Equatable, CaseIterable {
        /// Written where no file was.
        case restored
        /// Not written: the existing file was kept (policy keep).
        case keptExisting
        /// Written over the existing file (policy replace).
        case replaced
        /// Written beside the existing file, with ` (restored)` in its name (policy both).
        case keptBoth
    }
}
