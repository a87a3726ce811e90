import Foundation

/// A session opened with the provider being imported from, through which its secrets travel:
/// `dh-ietf1024-sha256-aes128-cbc-pkcs7` (AES under a Diffie-Hellman key, ``DiffieHellmanInitiator``) when it
/// offers it, else `plain`, as libsecret falls back.
struct SourceSession {
    /// The session's object path at the provider.
    let path: String
    /// How secrets are encoded.
    let algorithm: SecretSession.Algorithm

    private static let diffieHellman = "dh-ietf1024-sha256-aes128-cbc-pkcs7"
    private static let service = "org.freedesktop.Secret.Service"

    /// Opens a session on `connection`'s provider.
    static func open(on connection: SourceConnection) throws(SourceFailure) -> SourceSession {
        let initiator: DiffieHellmanInitiator
        do {
            initiator = try DiffieHellmanInitiator()
        } catch {
            throw SourceFailure("the key agreement failed")
        }
        do throws(SourceFailure) {
            let (output, path) = try connection.call(ObjectPath.root, service, "OpenSession") { out throws(BusReplyError) in
                try out.string(diffieHellman)
                try out.variant("ay") { value throws(BusReplyError) in try value.bytes(initiator.publicKey) }
            } reading: { answer throws(BusReplyError) in
                (try answer.variantBytes(), try answer.objectPath())
            }
            guard let output else { throw SourceFailure("OpenSession answered no public key") }
            do {
                return SourceSession(path: path, algorithm: .aes(try initiator.key(peerPublicKey: output)))
            } catch {
                throw SourceFailure("the provider's public key is not in the group")
            }
        } catch  where error.errorName == "org.freedesktop.DBus.Error.NotSupported" {
            let path = try connection.call(ObjectPath.root, service, "OpenSession") { out throws(BusReplyError) in
                try out.string("plain")
                try out.variant("s") { value throws(BusReplyError) in try value.string("") }
            } reading: { answer throws(BusReplyError) in
                _ = try answer.variantString()
                return try answer.objectPath()
            }
            return SourceSession(path: path, algorithm: .plain)
        }
    }

    /// The value of a secret the provider sent.
    func decode(_ secret: TransportedSecret) throws(SourceFailure) -> Data {
        do {
            return try SecretSession(id: "", owner: "", algorithm: algorithm).decode(secret)
        } catch {
            throw SourceFailure("the secret is not encoded for the session")
        }
    }

    /// The algorithm's name, as the README and the summary say it.
    var algorithmName: String {
        if case .plain = algorithm { "plain" } else { Self.diffieHellman }
    }

    /// Closes the session; a failure is no matter (it ends with the connection).
    func close(on connection: SourceConnection) {
        _ = try? connection.call(path, "org.freedesktop.Secret.Session", "Close") { _ throws(BusReplyError) in
        } reading: { _ throws(BusReplyError) in
        }
    }
}
