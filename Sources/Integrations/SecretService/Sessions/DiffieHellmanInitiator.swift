import Crypto
import Foundation

/// The client's side of the `dh-ietf1024-sha256-aes128-cbc-pkcs7` key agreement (``DiffieHellmanExchange``
/// is the provider's): a private exponent, the public key sent with `OpenSession`, and the AES key derived from
/// the provider's answer. Used when Coffer reads another provider (`coffer-secret-service --import`).
final class DiffieHellmanInitiator {
    private var privateKey: [UInt8]
    /// The public key to send, big-endian without leading zeros (as libsecret sends it).
    let publicKey: Data

    /// A fresh private exponent below 2^1023 (hence below the prime) and its public key.
    init() throws(BusReplyError) {
        var privateKey = [UInt8](repeating: 0, count: DiffieHellmanExchange.prime.count)
        var generator = SystemRandomNumberGenerator()
        for index in privateKey.indices { privateKey[index] = generator.next() }
        privateKey[0] &= 0x7f
        let publicKey = try DiffieHellmanExchange.power([2], privateKey)
        self.privateKey = privateKey
        self.publicKey = Data(publicKey.drop { $0 == 0 })
    }

    deinit {
        for index in privateKey.indices { privateKey[index] = 0 }
    }

    /// The session's AES-128 key, from the provider's public key: HKDF-SHA256 of the shared secret (128
    /// big-endian bytes), no salt, no info.
    func key(peerPublicKey: Data) throws(BusReplyError) -> SymmetricKey {
        let peer = try DiffieHellmanExchange.validated(peerPublicKey)
        var shared = try DiffieHellmanExchange.power(peer, privateKey)
        defer { for index in shared.indices { shared[index] = 0 } }
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: shared), salt: [UInt8](), info: [UInt8](), outputByteCount: 16)
    }
}
