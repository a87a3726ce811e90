/// A constraint `ssh-add` attaches to a key (`SSH_AGENTC_ADD_ID_CONSTRAINED`, draft-miller-ssh-agent §4.2.6).
public enum AgentKeyConstraint: Equatable, Sendable {
    /// `SSH_AGENT_CONSTRAIN_LIFETIME` (1): the key is removed this many seconds after it was added (`ssh-add -t`).
    case lifetime(seconds: UInt32)
    /// `SSH_AGENT_CONSTRAIN_CONFIRM` (2): every use must be confirmed by the person (`ssh-add -c`).
    case confirm
    /// `SSH_AGENT_CONSTRAIN_EXTENSION` (255) with its name; the agent knows none yet, so a key with one is
    /// refused rather than added without the restriction it asked for.
    case `extension`(name: String)
}
