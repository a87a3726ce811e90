/// A constraint `ssh-add` attaches to a key (`SSH_AGENTC_ADD_ID_CONSTRAINED`, draft-miller-ssh-agent §4.2.6).
public enum AgentKeyConstraint: Equatable, Sendable {
    /// `SSH_AGENT_CONSTRAIN_LIFETIME` (1): the key is removed this many seconds after it was added (`ssh-add -t`).
    case lifetime(seconds: UInt32)
    /// `SSH_AGENT_CONSTRAIN_CONFIRM` (2): every use must be confirmed by the person (`ssh-add -c`).
    case confirm
    /// `SSH_AGENT_CONSTRAIN_EXTENSION` `restrict-destination-v00@openssh.com` (`ssh-add -h`): the hosts the key may
    /// be used to log in to, and through.
    case destinations([DestinationConstraint])
    /// Another `SSH_AGENT_CONSTRAIN_EXTENSION` (255), by name; the agent serves none (`sk-provider@openssh.com` needs
    /// a security key; `associated-certs-v00@openssh.com` is for PKCS#11 tokens only, as in OpenSSH's agent), so a
    /// key with one is refused rather than added without the restriction it asked for.
    case `extension`(name: String)
}

extension AgentKeyConstraint {
    /// Whether `other` is a constraint of the same kind (an extension: of the same name).
    func isSameKind(as other: AgentKeyConstraint) -> Bool {
        switch (self, other) {
        case (.lifetime, .lifetime), (.confirm, .confirm), (.destinations, .destinations): true
        case (.extension(let name), .extension(let otherName)): name == otherName
        default: false
        }
    }
}
