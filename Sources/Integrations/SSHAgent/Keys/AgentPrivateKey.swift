import Foundation
import KeyCrypto
import KeychainModel

/// The private key of an add request (draft-miller-ssh-agent §4.2.1–§4.2.4), as the keychain holds keys.
///
/// Ed25519, ECDSA on P-256, P-384 and P-521 and RSA of 2048 bits or more become an ``AsymmetricKey``, alone or
/// with the OpenSSH certificate it was added with (``certified(_:_:)``); DSA, security keys and anything else are
/// ``unsupported(type:)``, answered with `SSH_AGENT_FAILURE`. The key never appears in a description.
public enum AgentPrivateKey: Sendable, CustomStringConvertible {
    /// A key the keychain can hold.
    case supported(AsymmetricKey)
    /// A key the keychain can hold, added with its certificate: the identity clients name by the certificate.
    case certified(AsymmetricKey, SSHCertificate)
    /// A certificate that cannot be taken: its authority's signature does not verify, or the private key is not the
    /// certified one.
    case refused(reason: String)
    /// A key type this agent does not take, by its SSH name (`ssh-ed25519`, `ssh-dss`, …).
    case unsupported(type: String)

    /// Reads the key type and its fields; for an unsupported type, only its name.
    init(reading reader: inout SSHWireReader) throws(SSHWireError) {
        let type = try reader.text()
        switch type {
        case "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521":
            let curve = try reader.text()
            guard "ecdsa-sha2-\(curve)" == type else { throw SSHWireError("the curve \(curve) does not match the key type \(type)") }
            self = .supported(try Self.ecdsa(type: type, point: try reader.string(), reader: &reader))
        case "ssh-rsa":
            let modulus = try reader.positiveMPInt()
            self = .supported(try Self.rsa(modulus: modulus, exponent: try reader.positiveMPInt(), reader: &reader))
        case "ssh-ed25519":
            self = .supported(try Self.ed25519(reader: &reader))
        case let certificate where certificate.hasSuffix(SSHCertificate.typeSuffix):
            self = try Self.certified(type: certificate, reader: &reader)
        default:
            self = .unsupported(type: type)
        }
    }

    /// The text for a log line; it never holds key material or secrets.
    public var description: String {
        switch self {
        case .supported(let key): "\(SSHKeyType.family(of: key)) \(key.sizeInBits)-bit private key"
        case .certified(let key, _): "\(SSHKeyType.family(of: key)) \(key.sizeInBits)-bit private key with a certificate"
        case .refused: "certified private key"
        case .unsupported(let type): "\(type) private key"
        }
    }

    /// `string certificate`, then the private fields the certificate does not hold (OpenSSH's
    /// `sshkey_private_serialize` of a certificate): Ed25519 `string ENC(A), string k‖ENC(A)`, ECDSA `mpint d`,
    /// RSA `mpint d, iqmp, p, q`. The certificate must be of `type`, signed by its authority, and certify this key.
    private static func certified(type: String, reader: inout SSHWireReader) throws(SSHWireError) -> AgentPrivateKey {
        let blob = try reader.string()
        guard let certificate = SSHCertificate(blob: blob), certificate.keyType + SSHCertificate.typeSuffix == type else {
            // Another key type's certificate (DSA, security keys) is not read further: it is refused as that type.
            guard SSHCertificate.keyTypes.contains(where: { $0 + SSHCertificate.typeSuffix == type }) else { return .unsupported(type: type) }
            throw SSHWireError("the \(type) certificate is malformed")
        }
        var certified = SSHWireReader(certificate.publicKeyBlob)
        _ = try certified.text()
        let key: AsymmetricKey
        switch certificate.keyType {
        case "ssh-ed25519":
            key = try ed25519(reader: &reader)
        case "ssh-rsa":
            let exponent = try certified.positiveMPInt()
            key = try rsa(modulus: try certified.positiveMPInt(), exponent: exponent, reader: &reader)
        default:
            _ = try certified.text()
            key = try ecdsa(type: certificate.keyType, point: try certified.string(), reader: &reader)
        }
        guard SSHKeyType.publicKeyBlob(of: key) == certificate.publicKeyBlob else {
            return .refused(reason: "the private key is not the one the certificate certifies")
        }
        guard certificate.isSignedByItsAuthority else { return .refused(reason: "the certificate's authority signature does not verify") }
        return .certified(key, certificate)
    }

    /// `mpint d` after the curve and the point `point` into the X9.63 form `04‖X‖Y‖K`, K padded to the field size.
    private static func ecdsa(type: String, point: Data, reader: inout SSHWireReader) throws(SSHWireError) -> AsymmetricKey {
        var scalar = try reader.positiveMPInt()
        defer { scalar.zeroize() }
        let fieldSize = point.count / 2
        guard point.first == 0x04, point.count % 2 == 1, scalar.count <= fieldSize else {
            throw SSHWireError("the \(type) key's point or scalar has the wrong size")
        }
        var representation = Data(point)
        representation.append(Data(count: fieldSize - scalar.count))
        representation.append(scalar)
        defer { representation.zeroize() }
        do {
            let key = try AsymmetricKey(externalRepresentation: representation, type: .ellipticCurve, keyClass: .privateKey)
            guard key.sizeInBits == SSHKeyType.ecdsaBits(type) else { throw SSHWireError("the \(type) key is on another curve") }
            return key
        } catch let error as SSHWireError {
            throw error
        } catch {
            throw SSHWireError("the \(type) key is not a valid key")
        }
    }

    /// `string ENC(A), string k‖ENC(A)` (RFC 8709 §4 and OpenSSH's PROTOCOL.key): the 32-byte seed k becomes the
    /// key, whose public key must be A.
    private static func ed25519(reader: inout SSHWireReader) throws(SSHWireError) -> AsymmetricKey {
        let point = try reader.string()
        var secret = Data(try reader.string())
        defer { secret.zeroize() }
        guard point.count == 32, secret.count == 64, secret.suffix(32).elementsEqual(point) else {
            throw SSHWireError("the ssh-ed25519 key's fields have the wrong size or do not match")
        }
        var seed = Data(secret.prefix(32))
        defer { seed.zeroize() }
        let key: AsymmetricKey
        do {
            key = try AsymmetricKey(externalRepresentation: seed, type: .ed25519, keyClass: .privateKey)
        } catch {
            throw SSHWireError("the ssh-ed25519 key is not a valid key")
        }
        guard key.publicKeyBytes.elementsEqual(point) else { throw SSHWireError("the ssh-ed25519 key's public key does not match its seed") }
        return key
    }

    /// `mpint d, iqmp, p, q` after the modulus and exponent, as KeyCrypto's RSA key (libcrypto derives the other
    /// CRT values and checks that the numbers agree).
    private static func rsa(modulus: Data, exponent: Data, reader: inout SSHWireReader) throws(SSHWireError) -> AsymmetricKey {
        var privateExponent = try reader.positiveMPInt()
        var coefficient = try reader.positiveMPInt()
        var primeP = try reader.positiveMPInt()
        var primeQ = try reader.positiveMPInt()
        defer {
            privateExponent.zeroize()
            coefficient.zeroize()
            primeP.zeroize()
            primeQ.zeroize()
        }
        guard modulus.count * 8 >= 2048 - 7 else { throw SSHWireError("RSA keys under 2048 bits are refused") }
        let key: AsymmetricKey
        do {
            key = try AsymmetricKey(
                rsaModulus: modulus, publicExponent: exponent, privateExponent: privateExponent, primeP: primeP, primeQ: primeQ,
                coefficient: coefficient)
        } catch {
            throw SSHWireError("the RSA key is not a valid key of 2048 bits or more")
        }
        guard key.sizeInBits >= 2048 else { throw SSHWireError("the RSA key is not a valid key of 2048 bits or more") }
        return key
    }
}
