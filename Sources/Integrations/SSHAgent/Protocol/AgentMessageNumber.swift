/// The message numbers of the agent protocol (draft-miller-ssh-agent §6.1) this agent reads or writes.
public enum AgentMessageNumber {
    /// `SSH_AGENT_FAILURE`.
    public static let failure: UInt8 = 5
    /// `SSH_AGENT_SUCCESS`.
    public static let success: UInt8 = 6
    /// `SSH_AGENTC_REQUEST_IDENTITIES`.
    public static let requestIdentities: UInt8 = 11
    /// `SSH_AGENT_IDENTITIES_ANSWER`.
    public static let identitiesAnswer: UInt8 = 12
    /// `SSH_AGENTC_SIGN_REQUEST`.
    public static let signRequest: UInt8 = 13
    /// `SSH_AGENT_SIGN_RESPONSE`.
    public static let signResponse: UInt8 = 14
    /// `SSH_AGENTC_ADD_IDENTITY`.
    public static let addIdentity: UInt8 = 17
    /// `SSH_AGENTC_REMOVE_IDENTITY`.
    public static let removeIdentity: UInt8 = 18
    /// `SSH_AGENTC_REMOVE_ALL_IDENTITIES`.
    public static let removeAllIdentities: UInt8 = 19
    /// `SSH_AGENTC_LOCK`.
    public static let lock: UInt8 = 22
    /// `SSH_AGENTC_UNLOCK`.
    public static let unlock: UInt8 = 23
    /// `SSH_AGENTC_ADD_ID_CONSTRAINED`.
    public static let addIdentityConstrained: UInt8 = 25
    /// `SSH_AGENTC_EXTENSION`.
    public static let `extension`: UInt8 = 27
    /// `SSH_AGENT_EXTENSION_FAILURE`.
    public static let extensionFailure: UInt8 = 28

    /// `SSH_AGENT_RSA_SHA2_256`, a flag of a sign request.
    public static let rsaSHA256Flag: UInt32 = 2
    /// `SSH_AGENT_RSA_SHA2_512`, a flag of a sign request.
    public static let rsaSHA512Flag: UInt32 = 4

    /// The longest message this agent reads, as OpenSSH's `AGENT_MAX_LEN` (256 KiB); a longer one closes the
    /// connection.
    public static let maximumMessageLength = 256 * 1024
}
