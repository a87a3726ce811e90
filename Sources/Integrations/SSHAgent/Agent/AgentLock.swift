import Crypto
import Foundation
import Synchronization

/// `ssh-add -x` and `-X`: while locked, the agent lists no keys and refuses everything but an unlock with the
/// same passphrase.
///
/// Only a salted HMAC-SHA-256 of the passphrase is kept; it is compared in constant time, and a wrong
/// passphrase costs its caller a pause that grows with each failure (up to 10 s), as OpenSSH's agent does.
public final class AgentLock: Sendable {
    private struct Locked {
        let salt: SymmetricKey
        let digest: Data
    }

    private let state = Mutex<Locked?>(nil)
    private let failures = Mutex(0)

    /// An unlocked agent.
    public init() {}

    /// Whether the agent is locked.
    public var isLocked: Bool { state.withLock { $0 != nil } }

    /// Locks with `passphrase`; false when already locked.
    public func lock(passphrase: Data) -> Bool {
        let salt = SymmetricKey(size: .bits256)
        let digest = Data(HMAC<SHA256>.authenticationCode(for: passphrase, using: salt))
        return state.withLock { locked in
            guard locked == nil else { return false }
            locked = Locked(salt: salt, digest: digest)
            return true
        }
    }

    /// Unlocks when `passphrase` is the one the agent was locked with; false (after a pause) otherwise.
    public func unlock(passphrase: Data) -> Bool {
        let matched = state.withLock { locked -> Bool in
            guard let current = locked else { return false }
            let digest = Data(HMAC<SHA256>.authenticationCode(for: passphrase, using: current.salt))
            guard Self.constantTimeEqual(digest, current.digest) else { return false }
            locked = nil
            return true
        }
        if matched {
            failures.withLock { $0 = 0 }
        } else {
            let count = failures.withLock { count in
                count += 1
                return count
            }
            usleep(UInt32(min(10_000_000, 100_000 * count)))
        }
        return matched
    }

    private static func constantTimeEqual(_ left: Data, _ right: Data) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(left, right) { difference |= a ^ b }
        return difference == 0
    }
}
