import Foundation
import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// Root's part of `coffer apps add` and `apps remove --remove-identity`: a system group of the program's
/// own, and its executable root-owned, setgid to that group and not writable by group or others —
/// through `dpkg-statoverride` when a Debian package owns the file, so that upgrades keep the mode.
struct AppIdentitySetup {
    /// The executable (canonical path).
    let path: String

    /// The prefix of the groups Coffer creates; only those are deleted by `--remove-identity`.
    static let groupPrefix = "coffer-app-"

    /// The group name for the executable at `path`: `coffer-app-`, its file name reduced to at most 14 of
    /// `[a-z0-9-]`, `-`, and six hex digits of a hash of the path (at most 32 characters, `groupadd`'s limit).
    static func groupName(forPath path: String) -> String {
        let base = URL(fileURLWithPath: path).lastPathComponent.lowercased().map { character -> Character in
            character.isASCII && (character.isLetter || character.isNumber) ? character : "-"
        }
        let name = String(String(base).trimmingCharacters(in: CharacterSet(charactersIn: "-")).prefix(14))
        // FNV-1a: tells apart programs with the same file name; not a security property (the daemon
        // checks the file, and refuses a group that already identifies another program).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return groupPrefix + (name.isEmpty ? "program" : name) + "-" + String(format: "%06x", hash & 0xFF_FFFF)
    }

    /// The `stat` of the executable.
    func status() throws -> stat {
        var status = stat()
        guard stat(path, &status) == 0 else { throw CLIFailure("cannot read \(path): \(String(cString: strerror(errno)))") }
        return status
    }

    /// The identity group the file carries already (set up earlier, or by a package's postinst), if any.
    func existingIdentityGroup() throws -> gid_t? {
        let status = try status()
        let carries = IdentityFileRule.carriesIdentity(owner: status.st_uid, group: status.st_gid, mode: status.st_mode)
        return carries ? status.st_gid : nil
    }

    /// Gives the executable an identity group (root only); returns the group's name. Keeps one the file
    /// already carries; otherwise creates `coffer-app-…` (`groupadd --system`) and sets the file up.
    func establish() throws -> String {
        if let gid = try existingIdentityGroup() {
            return Self.groupName(of: gid) ?? "gid \(gid)"
        }
        let group = Self.groupName(forPath: path)
        if Self.gid(named: group) == nil {
            try Self.run("/usr/sbin/groupadd", ["--system", group], doing: "create group \(group)")
        }
        let mode = String(format: "%o", 0o2000 | (try status().st_mode & 0o755))
        if try ownedByDebianPackage() {
            try addStatOverride(group: group, mode: mode)
        } else {
            guard let gid = Self.gid(named: group), chown(path, 0, gid) == 0, chmod(path, mode_t(mode, radix: 8)!) == 0 else {
                throw CLIFailure("cannot make \(path) root-owned and setgid to \(group): \(String(cString: strerror(errno)))")
            }
        }
        return group
    }

    /// Undoes ``establish()`` (root only): removes the stat override if there is one, makes the file
    /// root:root without the setgid bit, and deletes the group if Coffer created it.
    func remove() throws {
        let status = try status()
        guard IdentityFileRule.carriesIdentity(owner: status.st_uid, group: status.st_gid, mode: status.st_mode),
            let group = Self.groupName(of: status.st_gid)
        else {
            throw CLIFailure("\(path) carries no identity group; nothing to remove")
        }
        if Self.statOverride(of: path) != nil {
            try Self.run("/usr/bin/dpkg-statoverride", ["--remove", path], doing: "remove the stat override of \(path)")
        }
        guard chown(path, 0, 0) == 0, chmod(path, mode_t(status.st_mode & 0o755)) == 0 else {
            throw CLIFailure("cannot clear the setgid bit of \(path): \(String(cString: strerror(errno)))")
        }
        if group.hasPrefix(Self.groupPrefix) {
            try Self.run("/usr/sbin/groupdel", [group], doing: "delete group \(group)")
        } else {
            FileHandle.standardError.write(Data("coffer: left group \(group) in place: Coffer did not create it\n".utf8))
        }
    }

    /// Whether `dpkg-query -S` names a package that owns the file.
    private func ownedByDebianPackage() throws -> Bool {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-query") else { return false }
        return try Self.run("/usr/bin/dpkg-query", ["-S", path], doing: nil).status == 0
    }

    /// `dpkg-statoverride --update --add root GROUP MODE PATH`, unless the same override exists already.
    private func addStatOverride(group: String, mode: String) throws {
        if let existing = Self.statOverride(of: path) {
            let fields = existing.split(separator: " ")
            guard fields.count >= 3, fields[0] == "root", fields[1] == group else {
                throw CLIFailure("\(path) has a stat override already (\(existing)); remove it with 'dpkg-statoverride --remove \(path)' first")
            }
            return
        }
        try Self.run("/usr/bin/dpkg-statoverride", ["--update", "--add", "root", group, mode, path], doing: "add a stat override for \(path)")
    }

    /// The line `dpkg-statoverride --list PATH` prints, or nil.
    private static func statOverride(of path: String) -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-statoverride"),
            let listed = try? run("/usr/bin/dpkg-statoverride", ["--list", path], doing: nil), listed.status == 0
        else { return nil }
        let line = listed.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return line.isEmpty ? nil : line
    }

    /// Runs a system tool; with `doing`, a non-zero exit is a failure naming the step and the tool's message.
    @discardableResult
    private static func run(_ tool: String, _ arguments: [String], doing: String?) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            throw CLIFailure("cannot run \(tool): \(error.localizedDescription)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        if let doing, process.terminationStatus != 0 {
            throw CLIFailure("cannot \(doing): \(URL(fileURLWithPath: tool).lastPathComponent) said: \(text.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return (process.terminationStatus, text)
    }

    /// The gid of group `name`.
    static func gid(named name: String) -> gid_t? { getgrnam(name).map { $0.pointee.gr_gid } }

    /// The name of group `gid`.
    static func groupName(of gid: gid_t) -> String? { getgrgid(gid).flatMap { $0.pointee.gr_name.map { String(cString: $0) } } }
}
