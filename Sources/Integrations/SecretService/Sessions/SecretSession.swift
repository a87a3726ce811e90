import Crypto
import CryptoExtras
import Foundation

/// An open session: how secrets travel between the provider and one client.
struct SecretSession: Sendable {
    /// How secrets are encoded.
    enum Algorithm: Sendable {
        /// `plain`: as they are (the bus itself is private to the user).
        case plain
        /// `dh-ietf1024-sha256-aes128-cbc-pkcs7`: AES-128-CBC with PKCS#7 padding under the key the
        /// session's Diffie-Hellman exchange derived (``DiffieHellmanExchange``), a fresh IV per secret.
        case aes(SymmetricKey)
    }

    /// The session's id (the last element of its path).
    let id: String
    /// The unique bus name of the client that opened it.
    let owner: String
    /// The algorithm.
    let algorithm: Algorithm

    /// The session's path.
    var path: String { ObjectPath.session(id).path }

    /// `value` encoded for the client.
    func encode(_ value: Data, contentType: String) -> TransportedSecret {
        switch algorithm {
        case .plain:
            return TransportedSecret(session: path, parameters: Data(), value: value, contentType: contentType)
        case .aes(let key):
            let iv = AES._CBC.IV()
            let encrypted = (try? AES._CBC.encrypt(value, using: key, iv: iv)) ?? Data()
            return TransportedSecret(session: path, parameters: Data(iv), value: encrypted, contentType: contentType)
        }
    }

    /// The value a client sent, decoded.
    func decode(_ secret: TransportedSecret) throws(BusReplyError) -> Data {
        switch algorithm {
        case .plain:
            return secret.value
        case .aes(let key):
            guard let iv = try? AES._CBC.IV(ivBytes: secret.parameters),
                let value = try? AES._CBC.decrypt(secret.value, using: key, iv: iv)
            else { throw .invalidArguments("the secret is not encrypted for this session") }
            return value
        }
    }
}
