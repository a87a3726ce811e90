import Foundation
import KeyCrypto
import Logging
import ProgramIdentity

/// The agent's answers: one request in, one response out, with the keys in the keychain (``KeychainAgentStore``)
/// and the lock (``AgentLock``) shared by every connection.
///
/// It blocks its thread on the keychain, so it is called from a connection's own thread. Each failure is logged
/// with its reason at `notice` (`COFFER_LOG=notice`), never with key bytes, passphrases or data to sign.
public final class SSHAgentService: Sendable {
    private let store: KeychainAgentStore
    private let lock = AgentLock()
    private let defaultLifetime: UInt32?
    private let confirmation: AgentConfirmation
    private let callers: AgentCallerIdentifier
    private let logger: Logger

    /// An agent over `store`. `defaultLifetime` (`coffer ssh-agent -t`) applies to keys added without one;
    /// `confirmation` asks before each use of a key added with `ssh-add -c`.
    public init(
        store: KeychainAgentStore, defaultLifetime: UInt32? = nil, confirmation: AgentConfirmation,
        logger: Logger = Logger(label: "coffer.ssh-agent")
    ) {
        self.store = store
        self.defaultLifetime = defaultLifetime
        self.confirmation = confirmation
        self.logger = logger
        callers = AgentCallerIdentifier(client: store.client, logger: logger)
    }

    /// The caller behind a connection: `peer` is what the kernel said right after `accept`.
    func caller(of peer: PeerCredentials, connection: Int32) -> AgentCaller {
        callers.caller(of: peer, connection: connection)
    }

    /// The answer to one message `payload` from `caller` on `connection`, and whether the connection must then be
    /// closed (the message was malformed). Keys limited to programs (``AgentKeyTag/allowedGroups``) that `caller` is
    /// not are, for it, not there: not listed, not used, not removed. Keys with destination constraints
    /// (``AgentKeyTag/destinations``) are, in the same way, not there for a connection whose session bindings
    /// (``AgentConnection``) they do not permit.
    public func respond(
        to payload: Data, from caller: AgentCaller = .unidentified, on connection: AgentConnection = AgentConnection()
    ) -> (response: AgentResponse, close: Bool) {
        let request: AgentRequest
        do {
            request = try AgentRequest(payload: payload)
        } catch {
            logger.notice("malformed request: \(error.reason); closing the connection")
            return (.failure, true)
        }
        if case .sessionBind(let hostKey, let session, let signature, let isForwarding) = request {
            // Served even while the agent is locked, as OpenSSH's agent serves it, so that new sessions still bind.
            do {
                try connection.bind(hostKey: hostKey, sessionIdentifier: session, signature: signature, isForwarding: isForwarding)
                return (.success, false)
            } catch {
                logger.notice("\(request.name) refused: \(error.reason) [caller \(caller.logDescription)]")
                return (.extensionFailure, false)
            }
        }
        do {
            return (try answer(request, from: caller, on: connection), false)
        } catch {
            logger.notice("\(request.name) refused: \(error.reason) [caller \(caller.logDescription)]")
            return (.failure, false)
        }
    }

    private func answer(_ request: AgentRequest, from caller: AgentCaller, on connection: AgentConnection) throws(AgentRefusal) -> AgentResponse {
        if lock.isLocked {
            switch request {
            case .requestIdentities: return .identities([])
            case .unlock(let passphrase):
                guard lock.unlock(passphrase: passphrase) else { throw AgentRefusal("wrong passphrase") }
                return .success
            default: throw AgentRefusal("the agent is locked")
            }
        }
        switch request {
        case .requestIdentities:
            let visible = try store.keys().filter { caller.mayUse($0) && connection.permits($0.tag.destinations, user: nil) }
            return .identities(visible.map { ($0.blob, $0.comment) })
        case .sign(let blob, let data, let flags):
            return try sign(blob: blob, data: data, flags: flags, caller: caller, connection: connection)
        case .add(let key, let comment, let constraints):
            try add(key, comment: comment, constraints: constraints, connection: connection)
            return .success
        case .remove(let blob):
            guard let key = try store.key(blob: blob) else { throw AgentRefusal("the agent has no such key") }
            guard caller.mayUse(key) else { throw AgentRefusal("the key is limited to other programs") }
            guard connection.permits(key.tag.destinations, user: nil) else {
                throw AgentRefusal("the key's destination constraints do not permit this connection's sessions")
            }
            guard !key.isKeychainMade else {
                throw AgentRefusal("the key was made in the keychain and never leaves it; delete it with coffer delete-key")
            }
            try store.delete(key)
            return .success
        case .removeAll:
            for key in try store.keys() where !key.isKeychainMade && caller.mayUse(key) { try store.delete(key) }
            return .success
        case .lock(let passphrase):
            guard lock.lock(passphrase: passphrase) else { throw AgentRefusal("the agent is already locked") }
            return .success
        case .unlock:
            throw AgentRefusal("the agent is not locked")
        case .sessionBind:
            // Answered in respond(to:from:on:), locked or not.
            return .success
        case .unknownExtension(let name):
            logger.notice("EXTENSION \(name) is not supported")
            return .failure
        case .unsupported(let number):
            throw AgentRefusal("message \(number) is not served by this agent")
        }
    }

    private func sign(
        blob: Data, data: Data, flags: UInt32, caller: AgentCaller, connection: AgentConnection
    ) throws(AgentRefusal) -> AgentResponse {
        guard let key = try store.signingKey(blob: blob) else { throw AgentRefusal("the agent has no such key") }
        guard caller.mayUse(key.key) else { throw AgentRefusal("the key is limited to other programs") }
        try DestinationCheck.permitSignature(of: data, with: key.key, on: connection)
        guard let scheme = SSHSignature.scheme(for: key.key.publicKey, flags: flags) else {
            throw AgentRefusal("ssh-rsa (SHA-1) signatures are refused; ask for rsa-sha2-256 or rsa-sha2-512")
        }
        if key.key.tag.confirm { try confirmation.confirm(key.key) }
        let signature = try store.sign(data, with: key, scheme: scheme)
        do {
            return .signature(try SSHSignature.blob(scheme: scheme, signature: signature))
        } catch {
            throw AgentRefusal(error.reason)
        }
    }

    private func add(
        _ key: AgentPrivateKey, comment: String, constraints: [AgentKeyConstraint], connection: AgentConnection
    ) throws(AgentRefusal) {
        let privateKey: AsymmetricKey
        var tag = AgentKeyTag()
        switch key {
        case .supported(let plain):
            privateKey = plain
        case .certified(let certified, let certificate):
            privateKey = certified
            tag.certificate = certificate.blob
        case .refused(let reason):
            throw AgentRefusal(reason)
        case .unsupported:
            throw AgentRefusal("\(key) keys are not supported (Ed25519, ECDSA P-256/384/521 and RSA are, and their certificates)")
        }
        var lifetime = defaultLifetime
        for constraint in constraints {
            switch constraint {
            case .lifetime(let seconds): lifetime = seconds
            case .confirm: tag.confirm = true
            case .destinations(let destinations): tag.destinations = destinations
            case .extension(let name): throw AgentRefusal("the key constraint \(name) is not supported")
            }
        }
        if let lifetime { tag.expiresAt = store.expiry(afterSeconds: lifetime) }
        // Adding a key again replaces its comment and constraints, as OpenSSH's agent does, but keeps its program limit;
        // a key this connection may not see is not replaced (OpenSSH's agent refuses it too).
        let existing = try store.key(blob: tag.certificate ?? SSHKeyType.publicKeyBlob(of: privateKey))
        if let existing, !connection.permits(existing.tag.destinations, user: nil) {
            throw AgentRefusal("the key's destination constraints do not permit this connection's sessions")
        }
        tag.allowedGroups = existing?.tag.allowedGroups
        try store.add(privateKey, comment: comment, tag: tag)
    }
}
