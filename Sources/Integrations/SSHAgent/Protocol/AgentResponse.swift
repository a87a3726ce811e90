import Foundation

/// An answer of the agent (draft-miller-ssh-agent §4).
public enum AgentResponse: Equatable, Sendable {
    /// `SSH_AGENT_SUCCESS`.
    case success
    /// `SSH_AGENT_FAILURE`.
    case failure
    /// `SSH_AGENT_EXTENSION_FAILURE`.
    case extensionFailure
    /// `SSH_AGENT_IDENTITIES_ANSWER`: each key's public blob and comment.
    case identities([(blob: Data, comment: String)])
    /// `SSH_AGENT_SIGN_RESPONSE` with the signature blob.
    case signature(Data)

    /// The message's payload (its number and contents, without the length).
    public var payload: Data {
        var writer = SSHWireWriter()
        switch self {
        case .success: writer.byte(AgentMessageNumber.success)
        case .failure: writer.byte(AgentMessageNumber.failure)
        case .extensionFailure: writer.byte(AgentMessageNumber.extensionFailure)
        case .identities(let keys):
            writer.byte(AgentMessageNumber.identitiesAnswer)
            writer.uint32(UInt32(keys.count))
            for key in keys {
                writer.string(key.blob)
                writer.text(key.comment)
            }
        case .signature(let blob):
            writer.byte(AgentMessageNumber.signResponse)
            writer.string(blob)
        }
        return writer.bytes
    }

    /// The whole message: the payload's length as a `uint32`, then the payload.
    public var frame: Data {
        let body = payload
        var writer = SSHWireWriter()
        writer.string(body)
        return writer.bytes
    }

    /// Two responses are equal when their payloads are.
    public static func == (left: AgentResponse, right: AgentResponse) -> Bool { left.payload == right.payload }
}
