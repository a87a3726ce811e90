import Foundation
import KeychainModel
import Query

/// The public part of a token key's seal (``TokenKey/sealed``), readable without the keychain: the
/// layout version, the access control and the public key. The private scalar that follows is sealed with
/// this part as associated data, so a seal whose public part was changed does not open.
///
/// Layout, version 1 (P-256): `01`, the protection (its keyclass number, one byte), the flags (UInt64,
/// big-endian), the bound biometric set (length byte, then bytes), the public key (65 bytes, X9.63); then the
/// keychain's own part: the wrapped data key (length byte, then bytes), AES-GCM's nonce (12 bytes), the sealed
/// scalar (32) and its tag (16). Version 2 (Ed25519) is the same with `02` first, a 32-byte public key, and the
/// 32-byte seed (RFC 8032) sealed in place of the scalar. Version 3 (a P-256 key inside the TPM) is version 1 with
/// `03` first and, sealed in place of the scalar, the TPM's wrapped key (TPM2B_PRIVATE ‖ TPM2B_PUBLIC, of any length):
/// useless without that TPM, and without the class key that opens the seal. Version 4 (ML-KEM and ML-DSA) puts the
/// kind (one byte, ``TokenKeyCreation/Kind``) and the public key's length (UInt16, big-endian) before the public key,
/// and seals the key's seed (64 bytes for ML-KEM, 32 for ML-DSA, FIPS 203's and 204's `seedRepresentation`) in place
/// of the scalar. The version byte's high bit (`0x80`) marks a key tied to its key item (``TokenKeyCreation/tiedToItem``).
public struct TokenKeySealLayout: Sendable, Hashable {
    /// The layout version of P-256 keys.
    public static let version: UInt8 = 1
    /// The layout version of Ed25519 keys.
    public static let ed25519Version: UInt8 = 2
    /// The layout version of P-256 keys inside the TPM.
    public static let tpmVersion: UInt8 = 3
    /// The layout version of post-quantum keys.
    public static let postQuantumVersion: UInt8 = 4
    /// The length of a P-256 public key in X9.63 form.
    public static let publicKeyLength = 65
    /// The length of an Ed25519 public key.
    public static let ed25519PublicKeyLength = 32

    /// The key's access control.
    public let accessControl: AccessControl
    /// The public key: X9.63 for P-256, or the kind's raw encoding.
    public let publicKey: Data
    /// The kind of key, from the layout (and, for versions 1 to 3, the public key's length).
    public let kind: TokenKeyCreation.Kind
    /// The bytes of the public part: the associated data of the sealed scalar.
    public let header: Data
    /// The keychain's part that follows the header.
    public let sealedPart: Data
    /// Whether the private key is inside the TPM (version 3) rather than sealed by the keystore.
    public let isHeldByTPM: Bool
    /// Whether the key is tied to its key item: used only while a key item holds this seal.
    public let isTiedToItem: Bool

    /// The bit of the version byte that marks a key tied to its item.
    static let tiedToItemBit: UInt8 = 0x80

    /// The public part for a new seal; `heldByTPM` for a P-256 key made inside the TPM, `tiedToItem` for a key stored
    /// as a key item.
    public init(accessControl: AccessControl, publicKey: Data, heldByTPM: Bool = false, tiedToItem: Bool = false) {
        self.accessControl = accessControl
        self.publicKey = publicKey
        isHeldByTPM = heldByTPM
        isTiedToItem = tiedToItem
        kind = TokenKey(sealed: Data(), publicKey: publicKey, accessControl: accessControl).kind
        let version =
            heldByTPM
            ? Self.tpmVersion
            : kind.isPostQuantum ? Self.postQuantumVersion : kind == .ed25519 ? Self.ed25519Version : Self.version
        var header = Data([version | (tiedToItem ? Self.tiedToItemBit : 0), UInt8(accessControl.protection.keyclassNumber)])
        withUnsafeBytes(of: accessControl.flags.rawValue.bigEndian) { header.append(contentsOf: $0) }
        let set = (accessControl.boundBiometrySet ?? []).prefix(Int(UInt8.max))
        header.append(UInt8(set.count))
        header.append(contentsOf: set)
        if kind.isPostQuantum {
            header.append(kind.rawValue)
            withUnsafeBytes(of: UInt16(publicKey.count).bigEndian) { header.append(contentsOf: $0) }
        }
        header.append(publicKey)
        self.header = header
        sealedPart = Data()
    }

    /// Reads the public part of `sealed`; nil when it is not a seal of this layout.
    public init?(parsing sealed: Data) {
        let bytes = [UInt8](sealed)
        guard let first = bytes.first else { return nil }
        let version = first & ~Self.tiedToItemBit
        guard bytes.count > 11, [Self.version, Self.ed25519Version, Self.tpmVersion, Self.postQuantumVersion].contains(version),
            let protection = ProtectionClass(keyclassNumber: Int(bytes[1]))
        else { return nil }
        isHeldByTPM = version == Self.tpmVersion
        isTiedToItem = first & Self.tiedToItemBit != 0
        let flags = bytes[2..<10].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let setLength = Int(bytes[10])
        let setEnd = 11 + setLength
        let publicStart: Int
        switch version {
        case Self.postQuantumVersion:
            guard bytes.count > setEnd + 3, let stated = TokenKeyCreation.Kind(rawValue: bytes[setEnd]), stated.isPostQuantum,
                Int(bytes[setEnd + 1]) << 8 | Int(bytes[setEnd + 2]) == stated.publicKeyLength
            else { return nil }
            kind = stated
            publicStart = setEnd + 3
        case Self.ed25519Version:
            kind = .ed25519
            publicStart = setEnd
        default:
            kind = .p256
            publicStart = setEnd
        }
        let headerEnd = publicStart + kind.publicKeyLength
        guard bytes.count > headerEnd, kind != .p256 || bytes[publicStart] == 0x04 else { return nil }
        let set = Array(bytes[11..<setEnd])
        accessControl = AccessControl(
            protection: protection, flags: AccessControlFlags(rawValue: flags), boundBiometrySet: set.isEmpty ? nil : set)
        publicKey = Data(bytes[publicStart..<headerEnd])
        header = Data(bytes[..<headerEnd])
        sealedPart = Data(bytes[headerEnd...])
    }
}

extension TokenKey {
    /// Whether the private key is inside the TPM (a P-256 key of a keychain bound to one) rather than sealed by the
    /// keystore.
    public var isHeldByTPM: Bool { TokenKeySealLayout(parsing: sealed)?.isHeldByTPM ?? false }

    /// The handle of a seal read back from a key item's `v_Data` or from CryptoKit's `dataRepresentation`;
    /// nil when the bytes are not a token key's seal.
    public init?(sealed: Data) {
        guard let layout = TokenKeySealLayout(parsing: sealed) else { return nil }
        self.init(sealed: sealed, publicKey: layout.publicKey, accessControl: layout.accessControl)
    }
}
