import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Security

/// A keychain private key as swift-nio-ssl's custom private key: BoringSSL asks it for the handshake's signature,
/// and the keychain makes it, so a key that never leaves the keychain (`kSecAttrTokenIDSecureEnclave`) serves TLS.
///
/// Signing goes through the keychain (a request to the embedded keychain or the daemon, perhaps a prompt when the
/// key's access control asks for the person), so it may block: it runs on a thread pool's thread, never on the
/// event loop, and the future swift-nio-ssl waits on is completed from there.
struct KeychainSigningKey: NIOSSLCustomPrivateKey, Hashable {
    let key: SecKey
    let schemes: [TLSSignatureScheme]
    let keychain: KeychainBinding
    let threadPool: NIOThreadPool

    var signatureAlgorithms: [SignatureAlgorithm] { schemes.map(\.tls) }

    func sign(channel: Channel, algorithm: SignatureAlgorithm, data: ByteBuffer) -> EventLoopFuture<ByteBuffer> {
        guard let scheme = schemes.first(where: { $0.tls == algorithm }) else {
            return channel.eventLoop.makeFailedFuture(
                TLSIdentityError(.unsupportedSignatureAlgorithm, "the key does not sign with TLS signature scheme 0x\(String(algorithm.rawValue, radix: 16))"))
        }
        let input = Data(data.readableBytesView)
        let (key, keychain) = (key, keychain)
        return threadPool.runIfActive(eventLoop: channel.eventLoop) { () throws -> ByteBuffer in
            var error: Unmanaged<CFError>?
            let signature = keychain.run { SecKeyCreateSignature(key, scheme.keyAlgorithm, input as NSData, &error) }
            guard let signature else {
                let why = error.map { $0.takeRetainedValue().localizedDescription } ?? "no signature"
                throw TLSIdentityError(.signingFailed, "the keychain did not sign the handshake: \(why)")
            }
            return ByteBuffer(bytes: signature as Data)
        }
    }

    /// Not offered: RSA key exchange has no forward secrecy, and ``AppTransportSecurity``'s suites never use it.
    func decrypt(channel: Channel, data: ByteBuffer) -> EventLoopFuture<ByteBuffer> {
        channel.eventLoop.makeFailedFuture(
            TLSIdentityError(.decryptionNotOffered, "RSA key exchange (no forward secrecy) is not offered by keychain identities"))
    }

    static func == (lhs: KeychainSigningKey, rhs: KeychainSigningKey) -> Bool {
        lhs.key == rhs.key && lhs.schemes == rhs.schemes && lhs.threadPool === rhs.threadPool
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(schemes)
    }
}
