import Synchronization

/// How the agent's store becomes the owner's when the keychain asks for it: the agent's keys are in the owner's
/// group (``KeychainModel/OwnerAccessGroups/sshAgent``), which the system daemon opens only to a connection that
/// proved the keychain passcode. The store calls ``proveAfterRefusal(seen:)`` when the keychain refused it the
/// group, then tries once more.
///
/// Proofs are made one at a time: requests refused together wait for the one proof, and those that saw an older
/// proof fail than the last one made just try again.
public final class AgentOwnerAccess: Sendable {
    private let prove: @Sendable () -> Bool
    private let proofs = Mutex(0)

    /// An access that proves with `prove` (the passcode read on a terminal, or asked through the prompt agent),
    /// which returns whether the keychain accepted the proof.
    public init(prove: @escaping @Sendable () -> Bool) {
        self.prove = prove
    }

    /// How many proofs succeeded so far; pass it to ``proveAfterRefusal(seen:)`` after a refusal.
    var generation: Int { proofs.withLock { $0 } }

    /// Proves, unless another proof succeeded since `seen`; returns whether trying again may work.
    func proveAfterRefusal(seen: Int) -> Bool {
        proofs.withLock { count in
            guard count == seen else { return true }
            guard prove() else { return false }
            count += 1
            return true
        }
    }
}
