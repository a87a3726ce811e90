import Foundation
import KeyCrypto

/// The SSH names of the key types the agent serves, and the hash each ECDSA curve signs with (RFC 5656 §6.2.1).
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

    /// The key type's SSH name (`ecdsa-sha2-nistp256`, `ssh-rsa`).
    public static func name(of key: AsymmetricKey) -> String {
        key.type == .rsa ? "ssh-rsa" : "ecdsa-sha2-nistp\(key.sizeInBits)"
    }
}
