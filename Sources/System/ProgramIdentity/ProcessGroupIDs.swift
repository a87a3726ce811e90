import Foundation

/// A process's group IDs as `/proc/PID/status` lists them (`Gid:` real, effective, saved, filesystem).
///
/// A program that got its effective group from a setgid executable keeps a different real group, which
/// is what makes the kernel run it in secure-execution mode (`AT_SECURE`: `LD_*` ignored, not dumpable).
/// A process whose real group is the identity group got it otherwise (`sg`, `newgrp`, a member of the
/// group, a primary group) and runs without that protection; the daemon does not accept it as the program.
public struct ProcessGroupIDs: Sendable, Hashable {
    /// The real group ID.
    public let real: UInt32
    /// The effective group ID now (`SO_PEERCRED` has the one at connect).
    public let effective: UInt32

    /// The group IDs of process `pid`, or nil when its status cannot be read.
    public static func of(pid: Int32, procRoot: String = "/proc") -> ProcessGroupIDs? {
        guard let status = try? String(contentsOfFile: "\(procRoot)/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("Gid:") {
            let fields = line.dropFirst(4).split(whereSeparator: { $0 == "\t" || $0 == " " }).compactMap { UInt32($0) }
            guard fields.count >= 2 else { return nil }
            return ProcessGroupIDs(real: fields[0], effective: fields[1])
        }
        return nil
    }

    /// Whether the process got `gid` as its effective group from a setgid executable (so it runs in
    /// secure-execution mode), not as its real group.
    public func gotThroughSetgid(_ gid: UInt32) -> Bool { real != gid }
}
