import CSecretServiceDH
import Crypto
import Foundation

/// The key agreement of the `dh-ietf1024-sha256-aes128-cbc-pkcs7` algorithm, as libsecret and gnome-keyring
/// do it: Diffie-Hellman in the 1024-bit MODP group of RFC 2409 (group 2, generator 2), the shared secret
/// as a big-endian number padded to the prime's 128 bytes, then HKDF-SHA256 with no salt and no info to a
/// 16-byte AES-128 key.
enum DiffieHellmanExchange {
    /// The group's prime (RFC 2409 §6.2), big-endian.
    static let prime: [UInt8] = Array(
        hex: "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
            + "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
            + "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF")

    /// Answers a client's public key: this side's public key (to send back) and the session's AES key.
    static func respond(to peerPublicKey: Data) throws(BusReplyError) -> (publicKey: Data, key: SymmetricKey) {
        let peer = try validated(peerPublicKey)
        // A private exponent below 2^1023, hence below the prime.
        var privateKey = [UInt8](repeating: 0, count: prime.count)
        var generator = SystemRandomNumberGenerator()
        for index in privateKey.indices { privateKey[index] = generator.next() }
        privateKey[0] &= 0x7f
        defer { for index in privateKey.indices { privateKey[index] = 0 } }
        let publicKey = try power([2], privateKey)
        var shared = try power(peer, privateKey)
        defer { for index in shared.indices { shared[index] = 0 } }
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: shared), salt: [UInt8](), info: [UInt8](), outputByteCount: 16)
        return (Data(publicKey.drop { $0 == 0 }), key)
    }

    /// The peer's key as 128 big-endian bytes, refused unless 1 < key < prime − 1.
    static func validated(_ key: Data) throws(BusReplyError) -> [UInt8] {
        let digits = Array(key.drop { $0 == 0 })
        guard digits.count <= prime.count else { throw .invalidArguments("the public key is not in the group") }
        let padded = [UInt8](repeating: 0, count: prime.count - digits.count) + digits
        var primeMinusOne = prime
        primeMinusOne[primeMinusOne.count - 1] -= 1
        let isOneOrLess = padded.dropLast().allSatisfy { $0 == 0 } && padded.last! <= 1
        guard !isOneOrLess, padded.lexicographicallyPrecedes(primeMinusOne) else {
            throw .invalidArguments("the public key is not in the group")
        }
        return padded
    }

    /// `base` ^ `exponent` mod the prime, as 128 big-endian bytes.
    static func power(_ base: [UInt8], _ exponent: [UInt8]) throws(BusReplyError) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: prime.count)
        let status = coffer_secret_modexp(base, base.count, exponent, exponent.count, prime, prime.count, &result)
        guard status == 0 else { throw .failed("the key agreement failed") }
        return result
    }
}

extension Array where Element == UInt8 {
    /// The bytes written in `hex` (an even number of hexadecimal digits).
    fileprivate init(hex: String) {
        var bytes: [UInt8] = []
        var high: UInt8?
        for character in hex {
            guard let nibble = character.hexDigitValue.map(UInt8.init) else { continue }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        self = bytes
    }
}
