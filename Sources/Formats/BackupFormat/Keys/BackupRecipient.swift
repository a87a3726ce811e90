import Crypto
import Foundation

/// A keychain a backup is made for: its X-Wing public key (ML-KEM-768 with X25519), whose private key that keychain
/// keeps. A backup made for it is sealed under a secret encapsulated to that key, so someone who records the file now
/// cannot open it later even with a quantum computer, and no password travels with it.
///
/// Its text form, which `coffer backup recipient` prints, is `coffer-recipient-1:` followed by the raw public key in
/// base64 (URL alphabet, no padding).
public struct BackupRecipient: Sendable, Equatable {
    /// The prefix of the text form.
    public static let textPrefix = "coffer-recipient-1:"

    /// The recipient's public key.
    public let publicKey: XWingMLKEM768X25519.PublicKey

    /// The recipient of `publicKey`.
    public init(publicKey: XWingMLKEM768X25519.PublicKey) { self.publicKey = publicKey }

    /// The recipient a text form names; nil when it is not one.
    public init?(text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix(Self.textPrefix) else { return nil }
        var base64 = String(trimmed.dropFirst(Self.textPrefix.count)).replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let raw = Data(base64Encoded: base64), let key = try? XWingMLKEM768X25519.PublicKey(rawRepresentation: raw) else { return nil }
        publicKey = key
    }

    /// The text form.
    public var text: String {
        let base64 = publicKey.rawRepresentation.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return Self.textPrefix + base64
    }

    /// The key's identifier, the first 16 bytes of SHA-256 of its raw form: written in the backup so the keychain
    /// finds the right key, and so a backup for another keychain is named as such.
    public var keyID: Data { Self.keyID(of: publicKey.rawRepresentation) }

    /// The identifier of the raw public key `raw`.
    public static func keyID(of raw: Data) -> Data { Data(SHA256.hash(data: raw).prefix(16)) }

    public static func == (lhs: BackupRecipient, rhs: BackupRecipient) -> Bool {
        lhs.publicKey.rawRepresentation == rhs.publicKey.rawRepresentation
    }
}

/// What a backup made for a recipient carries after its header: which key it was made for, and the X-Wing
/// ciphertext that key decapsulates into the backup's secret.
public struct BackupRecipientBlock: Sendable, Equatable {
    /// The recipient key's identifier (``BackupRecipient/keyID``).
    public let keyID: Data
    /// The X-Wing ciphertext (1,120 bytes).
    public let encapsulated: Data

    /// The length of an X-Wing ciphertext.
    public static let encapsulatedLength = 1120
    /// The block's length in the file: a UInt16 length, then the identifier and the ciphertext.
    static let encodedLength = 2 + 16 + encapsulatedLength

    init(keyID: Data, encapsulated: Data) {
        self.keyID = keyID
        self.encapsulated = encapsulated
    }

    var encoded: Data {
        var bytes = Data()
        withUnsafeBytes(of: UInt16(keyID.count + encapsulated.count).bigEndian) { bytes.append(contentsOf: $0) }
        bytes.append(keyID)
        bytes.append(encapsulated)
        return bytes
    }

    static func decode(_ bytes: Data) throws(BackupFormatError) -> BackupRecipientBlock {
        guard bytes.count >= encodedLength else { throw .damaged("the file ends inside its recipient block") }
        let start = bytes.startIndex
        guard Int(bytes[start]) << 8 | Int(bytes[start + 1]) == 16 + encapsulatedLength else {
            throw .damaged("the recipient block has an unknown length")
        }
        return BackupRecipientBlock(keyID: Data(bytes[(start + 2)..<(start + 18)]), encapsulated: Data(bytes[(start + 18)..<(start + encodedLength)]))
    }
}
