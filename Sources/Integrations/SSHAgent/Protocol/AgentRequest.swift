import Foundation

/// A request of the agent protocol, read from one message's payload (draft-miller-ssh-agent §4).
///
/// Private key bytes of an add request stay in ``AgentPrivateKey``; nothing here prints them.
public enum AgentRequest: Sendable {
    /// `SSH_AGENTC_REQUEST_IDENTITIES`.
    case requestIdentities
    /// `SSH_AGENTC_SIGN_REQUEST`: the key's public blob, the data to sign, and the flags.
    case sign(keyBlob: Data, data: Data, flags: UInt32)
    /// `SSH_AGENTC_ADD_IDENTITY` or `SSH_AGENTC_ADD_ID_CONSTRAINED`.
    case add(AgentPrivateKey, comment: String, constraints: [AgentKeyConstraint])
    /// `SSH_AGENTC_REMOVE_IDENTITY`: the key's public blob.
    case remove(keyBlob: Data)
    /// `SSH_AGENTC_REMOVE_ALL_IDENTITIES`.
    case removeAll
    /// `SSH_AGENTC_LOCK` with its passphrase.
    case lock(passphrase: Data)
    /// `SSH_AGENTC_UNLOCK` with its passphrase.
    case unlock(passphrase: Data)
    /// `session-bind@openssh.com`: the host key, the session identifier, the host's signature, and whether the
    /// connection is forwarded (OpenSSH's PROTOCOL.agent).
    case sessionBind(hostKey: Data, sessionIdentifier: Data, signature: Data, isForwarding: Bool)
    /// Another `SSH_AGENTC_EXTENSION`, by name.
    case unknownExtension(name: String)
    /// A message number this agent does not serve.
    case unsupported(number: UInt8)

    /// The request in `payload` (a message without its length: the number, then the contents).
    public init(payload: Data) throws(SSHWireError) {
        var reader = SSHWireReader(payload)
        let number = try reader.byte()
        switch number {
        case AgentMessageNumber.requestIdentities:
            self = .requestIdentities
        case AgentMessageNumber.signRequest:
            let blob = try reader.string()
            let data = try reader.string()
            self = .sign(keyBlob: blob, data: data, flags: try reader.uint32())
        case AgentMessageNumber.addIdentity, AgentMessageNumber.addIdentityConstrained:
            let key = try AgentPrivateKey(reading: &reader)
            if case .unsupported = key {
                // Its fields are not known, so neither is where the comment starts: nothing more is read.
                self = .add(key, comment: "", constraints: [])
                return
            }
            let comment = String(decoding: try reader.string(), as: UTF8.self)
            var constraints: [AgentKeyConstraint] = []
            if number == AgentMessageNumber.addIdentityConstrained {
                while !reader.isAtEnd {
                    let constraint = try Self.constraint(&reader)
                    // Each kind at most once, as OpenSSH's agent reads them (`parse_key_constraints`).
                    guard !constraints.contains(where: { $0.isSameKind(as: constraint) }) else {
                        throw SSHWireError("a key constraint is given twice")
                    }
                    constraints.append(constraint)
                }
            }
            self = .add(key, comment: comment, constraints: constraints)
        case AgentMessageNumber.removeIdentity:
            self = .remove(keyBlob: try reader.string())
        case AgentMessageNumber.removeAllIdentities:
            self = .removeAll
        case AgentMessageNumber.lock:
            self = .lock(passphrase: try reader.string())
        case AgentMessageNumber.unlock:
            self = .unlock(passphrase: try reader.string())
        case AgentMessageNumber.extension:
            let name = try reader.text()
            guard name == "session-bind@openssh.com" else {
                self = .unknownExtension(name: name)
                return
            }
            let hostKey = try reader.string()
            let session = try reader.string()
            let signature = try reader.string()
            self = .sessionBind(hostKey: hostKey, sessionIdentifier: session, signature: signature, isForwarding: try reader.boolean())
        default:
            self = .unsupported(number: number)
            return
        }
        try reader.expectEnd()
    }

    /// One constraint of an `SSH_AGENTC_ADD_ID_CONSTRAINED`. `restrict-destination-v00@openssh.com` is read in full;
    /// another extension's contents are read to the end of the message: their shape depends on the extension, which
    /// this agent does not know (and the key is refused).
    private static func constraint(_ reader: inout SSHWireReader) throws(SSHWireError) -> AgentKeyConstraint {
        switch try reader.byte() {
        case 1: return .lifetime(seconds: try reader.uint32())
        case 2: return .confirm
        case 255:
            let name = try reader.text()
            if name == "restrict-destination-v00@openssh.com" {
                return .destinations(try DestinationConstraint.list(try reader.string()))
            }
            _ = reader.rest()
            return .extension(name: name)
        case let other: throw SSHWireError("unknown key constraint \(other)")
        }
    }

    /// The request's name for the log; it never carries a key, a passphrase or data to sign.
    public var name: String {
        switch self {
        case .requestIdentities: "REQUEST_IDENTITIES"
        case .sign: "SIGN_REQUEST"
        case .add(_, _, let constraints): constraints.isEmpty ? "ADD_IDENTITY" : "ADD_ID_CONSTRAINED"
        case .remove: "REMOVE_IDENTITY"
        case .removeAll: "REMOVE_ALL_IDENTITIES"
        case .lock: "LOCK"
        case .unlock: "UNLOCK"
        case .sessionBind: "EXTENSION session-bind@openssh.com"
        case .unknownExtension(let name): "EXTENSION \(name)"
        case .unsupported(let number): "message \(number)"
        }
    }
}
