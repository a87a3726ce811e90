import CryptoExtras
import Foundation
import KeyCrypto
import KeychainModel

/// The private key of an add request (draft-miller-ssh-agent §4.2.1–§4.2.4), as the keychain holds keys.
///
/// Ed25519, ECDSA on P-256, P-384 and P-521 and RSA of 2048 bits or more become an ``AsymmetricKey``; DSA,
/// certificates and anything else are ``unsupported(type:)``, answered with `SSH_AGENT_FAILURE`. The key
/// never appears in a description.
public enum AgentPrivateKey: Sendable, CustomStringConvertible {
    /// A key the keychain can hold.
    case supported(AsymmetricKey)
    /// A key type this agent does not take, by its SSH name (`ssh-ed25519`, `ssh-dss`, …).
    case unsupported(type: String)

    /// Reads the key type and its fields; for an unsupported type, only its name.
    init(reading reader: inout SSHWireReader) throws(SSHWireError) {
        let type = try reader.text()
        switch type {
        case "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521":
            self = .supported(try Self.ecdsa(type: type, reader: &reader))
        case "ssh-rsa":
            self = .supported(try Self.rsa(reader: &reader))
        case "ssh-ed25519":
            self = .supported(try Self.ed25519(reader: &reader))
        default:
            self = .unsupported(type: type)
        }
    }

    /// The text for a log line; it never holds key material or secrets.
    public var description: String {
        switch self {
        case .supported(let key): "\(SSHKeyType.family(of: key)) \(key.sizeInBits)-bit private key"
        case .unsupported(let type): "\(type) private key"
        }
    }

    /// `string curve, string Q, mpint d` into the X9.63 form `04‖X‖Y‖K`, K padded to the field size.
    private static func ecdsa(type: String, reader: inout SSHWireReader) throws(SSHWireError) -> AsymmetricKey {
        let curve = try reader.text()
        guard "ecdsa-sha2-\(curve)" == type else { throw SSHWireError("the curve \(curve) does not match the key type \(type)") }
        let point = try reader.string()
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

    /// `mpint n, e, d, iqmp, p, q` into PKCS#1 `RSAPrivateKey` DER, through swift-crypto (which derives the CRT
    /// values and checks the key).
    private static func rsa(reader: inout SSHWireReader) throws(SSHWireError) -> AsymmetricKey {
        let modulus = try reader.positiveMPInt()
        let exponent = try reader.positiveMPInt()
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
        var der: Data
        do {
            der = try _RSA.Signing.PrivateKey(n: modulus, e: exponent, d: privateExponent, p: primeP, q: primeQ).derRepresentation
        } catch {
            throw SSHWireError("the RSA key is not a valid key of 2048 bits or more")
        }
        defer { der.zeroize() }
        do {
            return try AsymmetricKey(externalRepresentation: der, type: .rsa, keyClass: .privateKey)
        } catch {
            throw SSHWireError("the RSA key is not a valid key")
        }
    }
}
