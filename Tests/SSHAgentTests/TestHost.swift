import Foundation
import KeyCrypto

@testable import SSHAgent

/// A host key made for a test: its blob, and its signatures of session identifiers as an SSH server makes them
/// for `session-bind@openssh.com`.
struct TestHost {
    /// The host key types the agent verifies, with the signature name each signs under.
    enum Kind: String, CaseIterable, CustomStringConvertible {
        case ed25519, p256, p384, p521, rsaSHA256, rsaSHA512, rsaSHA1
        var description: String { rawValue }
    }

    let key: AsymmetricKey
    let scheme: SSHSignature.Scheme

    init(_ kind: Kind) throws {
        switch kind {
        case .ed25519:
            key = try AsymmetricKey.generate(type: .ed25519, sizeInBits: 256)
            scheme = SSHSignature.Scheme(name: "ssh-ed25519", algorithm: .edDSASignatureMessageCurve25519SHA512)
        case .p256:
            key = try AsymmetricKey.generate(type: .ellipticCurve, sizeInBits: 256)
            scheme = SSHSignature.Scheme(name: "ecdsa-sha2-nistp256", algorithm: .ecdsaSignatureMessageRFC4754SHA256)
        case .p384:
            key = try AsymmetricKey.generate(type: .ellipticCurve, sizeInBits: 384)
            scheme = SSHSignature.Scheme(name: "ecdsa-sha2-nistp384", algorithm: .ecdsaSignatureMessageRFC4754SHA384)
        case .p521:
            key = try AsymmetricKey.generate(type: .ellipticCurve, sizeInBits: 521)
            scheme = SSHSignature.Scheme(name: "ecdsa-sha2-nistp521", algorithm: .ecdsaSignatureMessageRFC4754SHA512)
        case .rsaSHA256, .rsaSHA512, .rsaSHA1:
            key = try Self.rsaKeyValue
            scheme =
                switch kind {
                case .rsaSHA256: SSHSignature.Scheme(name: "rsa-sha2-256", algorithm: .rsaSignatureMessagePKCS1v15SHA256)
                case .rsaSHA512: SSHSignature.Scheme(name: "rsa-sha2-512", algorithm: .rsaSignatureMessagePKCS1v15SHA512)
                default: SSHSignature.Scheme(name: "ssh-rsa", algorithm: .rsaSignatureMessagePKCS1v15SHA1)
                }
        }
    }

    /// One RSA key for every RSA case (making one takes a while).
    private static let rsaKey = Result(catching: { try AsymmetricKey.generate(type: .rsa, sizeInBits: 2048) })
    private static var rsaKeyValue: AsymmetricKey { get throws { try rsaKey.get() } }

    /// The host key's blob.
    var blob: Data { SSHKeyType.publicKeyBlob(of: key) }

    /// The host's signature blob of `sessionIdentifier`.
    func signature(of sessionIdentifier: Data) throws -> Data {
        try SSHSignature.blob(scheme: scheme, signature: try key.signature(for: sessionIdentifier, algorithm: scheme.algorithm))
    }

    /// A random session identifier of `count` bytes (SHA-256's exchange hash is 32).
    static func sessionIdentifier(_ count: Int = 32) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: 0...255) })
    }

    /// Binds `connection` to a new session with this host.
    @discardableResult
    func bind(_ connection: AgentConnection, forwarding: Bool = false, session: Data = TestHost.sessionIdentifier()) throws -> Data {
        try connection.bind(hostKey: blob, sessionIdentifier: session, signature: try signature(of: session), isForwarding: forwarding)
        return session
    }
}
