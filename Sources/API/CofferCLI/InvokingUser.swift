import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The user who ran `sudo coffer …` (`SUDO_UID`, `SUDO_GID`): root does the system work (groups, file
/// modes), then the CLI becomes that user again to talk to the daemon, so the registration lands in the
/// user's keychain. When the CLI itself runs setgid (the trusted front end's group), that effective group
/// is kept, so the daemon still recognises the CLI.
struct InvokingUser {
    /// The user's uid.
    let uid: uid_t
    /// The user's primary gid.
    let gid: gid_t
    /// The user's name, for the supplementary groups.
    let name: String

    /// The user behind `sudo`, when the CLI runs as root through it for someone other than root.
    static func fromSudo(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> InvokingUser? {
        guard geteuid() == 0, let uid = environment["SUDO_UID"].flatMap(UInt32.init), uid != 0,
            let gid = environment["SUDO_GID"].flatMap(UInt32.init), let entry = getpwuid(uid), let name = entry.pointee.pw_name
        else { return nil }
        return InvokingUser(uid: uid, gid: gid, name: String(cString: name))
    }

    /// The effective group to keep: the CLI's own when it runs setgid, else the user's.
    private var effectiveGroup: gid_t { getegid() != getgid() ? getegid() : gid }

    /// Becomes the user for good: supplementary groups, then the groups, then the uid (in that order, as
    /// only root may change groups). Fails rather than go on as root.
    func becomeForGood() throws {
        let kept = effectiveGroup
        // setregid/setreuid set the saved IDs to the new effective ones (the real ID changes).
        guard initgroups(name, gid) == 0, setregid(gid, kept) == 0, setreuid(uid, uid) == 0 else {
            throw CLIFailure("cannot become user \(name) (uid \(uid)) again: \(String(cString: strerror(errno)))")
        }
        guard getuid() == uid, geteuid() == uid, setuid(0) != 0 else {
            throw CLIFailure("cannot become user \(name) (uid \(uid)) again")
        }
    }

    /// Runs `body` with the user's effective uid (and the kept effective group), then becomes root again:
    /// for a daemon call between two pieces of root's work.
    func whileActingAsUser<Result>(_ body: () throws -> Result) throws -> Result {
        let rootGroup = getegid()
        guard setegid(effectiveGroup) == 0, seteuid(uid) == 0 else {
            throw CLIFailure("cannot act as user \(name) (uid \(uid)): \(String(cString: strerror(errno)))")
        }
        defer {
            _ = seteuid(0)
            _ = setegid(rootGroup)
        }
        return try body()
    }
}
