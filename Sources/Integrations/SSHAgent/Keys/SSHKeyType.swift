import Foundation
import KeyCrypto
import Security

/// The SSH names of the key types the agent serves (RFC 4253, RFC 5656, RFC 8709), and the hash each ECDSA curve
/// signs with (RFC 5656 §6.2.1).
public enum SSHKeyType {
    /// The curve size of an `ecdsa-sha2-nistpN` name, or nil.
    static func ecdsaBits(_ type: String) -> Int? {
        switch type {
        case "ecdsa-sha2-nistp256": 256
        case "ecdsa-sha2-nistp384": 384
        case "ecdsa-sha2-nistp521": 521
        default: nil
        }
    }

    /// The public key blob of `key` (RFC 4253 §6.6, RFC 5656 §3.1), the bytes `ssh-add -L` prints in base64:
    /// KeyCrypto's OpenSSH line without its name and comment.
    public static func publicKeyBlob(of key: AsymmetricKey) -> Data {
        let line = key.publicKey.openSSHPublicKey()
        let fields = line.split(separator: " ")
        // KeyCrypto writes `name base64`; its base64 always decodes.
        return Data(base64Encoded: String(fields[1]))!
    }

    /// The key type's SSH name (`ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`).
    public static func name(of key: AsymmetricKey) -> String {
        switch key.type {
        case .rsa: "ssh-rsa"
        case .ellipticCurve: "ecdsa-sha2-nistp\(key.sizeInBits)"
        case .ed25519: "ssh-ed25519"
        }
    }

    /// The family as `ssh-add -l` names it: `RSA`, `ECDSA` or `ED25519`.
    public static func family(of key: AsymmetricKey) -> String {
        switch key.type {
        case .rsa: "RSA"
        case .ellipticCurve: "ECDSA"
        case .ed25519: "ED25519"
        }
    }

    /// The keychain's `kSecAttrKeyType` for `type`.
    static func keychainType(_ type: KeyType) -> CFString {
        switch type {
        case .rsa: kSecAttrKeyTypeRSA
        case .ellipticCurve: kSecAttrKeyTypeECSECPrimeRandom
        case .ed25519: kSecAttrKeyTypeEd25519
        }
    }

    /// The key type a `kSecAttrKeyType` value names (Apple's string, such as "105", as `SecKeyCopyAttributes` gives it,
    /// or the number a search's attributes give), if the agent serves it.
    static func keyType(keychainValue value: Any?) -> KeyType? {
        let code = (value as? String).flatMap(Int.init) ?? (value as? NSNumber)?.intValue
        return code.flatMap(KeyType.init(rawValue:))
    }
}
