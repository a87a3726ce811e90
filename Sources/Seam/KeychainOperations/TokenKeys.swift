import Foundation
import KeychainModel
import Query

/// `SecKeyCreateRandomKey` with `kSecAttrTokenID = kSecAttrTokenIDSecureEnclave`, and CryptoKit's
/// `SecureEnclave` keys: a P-256 private key made inside the keystore, which never leaves it (§7.5), and the
/// post-quantum keys of CryptoKit's `SecureEnclave.MLKEM768`, `.MLKEM1024`, `.MLDSA65` and `.MLDSA87`. Coffer also
/// makes Ed25519 keys this way (`coffer create-key --ssh -t ed25519`), which Apple's enclave does not.
public struct TokenKeyCreation: Sendable, Hashable {
    /// The kinds of key the keystore makes.
    public enum Kind: UInt8, Sendable, Hashable, CaseIterable {
        /// ECDSA and ECDH on P-256, as Apple's Secure Enclave.
        case p256 = 1
        /// Ed25519 signatures (a Coffer extension).
        case ed25519 = 2
        /// ML-KEM-768 key encapsulation (FIPS 203), as CryptoKit's `SecureEnclave.MLKEM768`.
        case mlkem768 = 3
        /// ML-KEM-1024 key encapsulation, as `SecureEnclave.MLKEM1024`.
        case mlkem1024 = 4
        /// ML-DSA-65 signatures (FIPS 204), as `SecureEnclave.MLDSA65`.
        case mldsa65 = 5
        /// ML-DSA-87 signatures, as `SecureEnclave.MLDSA87`.
        case mldsa87 = 6
        /// X-Wing (ML-KEM-768 with X25519) key encapsulation, a Coffer extension: the key backups are made for
        /// (``TokenKeyCreation/Kind/xwing``), which Apple's enclave does not keep.
        case xwing = 7
    }

    /// The key's protection class and the authentication its use needs (`privateKeyUsage` with any
    /// constraints; Apple's default is `WhenUnlockedThisDeviceOnly` with `privateKeyUsage` alone).
    public var accessControl: AccessControl
    /// The key's size, as Apple's `kSecAttrKeySizeInBits` names it: 256 (P-256, Ed25519), 768 or 1024 (ML-KEM),
    /// 65 or 87 (ML-DSA), each kind's one size (``Kind/sizeInBits``).
    public var sizeInBits: Int
    /// The kind of key.
    public var kind: Kind
    /// Whether the key is made to be stored as a key item (`kSecAttrIsPermanent`): its seal is then tied to that
    /// item, and once no key item holds it the keychain refuses to use it, so deleting the item deletes the key.
    public var tiedToItem: Bool

    /// A creation request; `sizeInBits` is the kind's own size when nil.
    public init(accessControl: AccessControl, sizeInBits: Int? = nil, kind: Kind = .p256, tiedToItem: Bool = false) {
        self.accessControl = accessControl
        self.sizeInBits = sizeInBits ?? kind.sizeInBits
        self.kind = kind
        self.tiedToItem = tiedToItem
    }

    /// Apple's access control for a Secure Enclave key made without one: `protection` (`kSecAttrAccessible`;
    /// when-unlocked this device only when nil) with `privateKeyUsage` alone.
    public static func defaultAccessControl(protection: ProtectionClass?) -> AccessControl {
        AccessControl(protection: protection ?? .whenUnlockedThisDeviceOnly, flags: .privateKeyUsage)
    }
}

/// A key made by ``Request/createTokenKey(_:)``: its public key, and the private key sealed so that only
/// the keychain that made it can use it (the bytes CryptoKit calls `dataRepresentation`, and the `v_Data`
/// of its key item).
public struct TokenKey: Sendable, Hashable {
    /// The sealed private key: the keychain opens it (and keeps it open while its class is unlocked), and no other keychain can.
    public var sealed: Data
    /// The public key: X9.63 (`04‖X‖Y`) for P-256, the 32-byte point for Ed25519, FIPS 203's or 204's encoding
    /// (`rawRepresentation`) for ML-KEM and ML-DSA.
    public var publicKey: Data
    /// The key's access control, as sealed with it.
    public var accessControl: AccessControl

    /// A key handle.
    public init(sealed: Data, publicKey: Data, accessControl: AccessControl) {
        self.sealed = sealed
        self.publicKey = publicKey
        self.accessControl = accessControl
    }

    /// The kind of key, told by its public key's length (``TokenKeyCreation/Kind/publicKeyLength``, one per kind).
    public var kind: TokenKeyCreation.Kind {
        TokenKeyCreation.Kind.allCases.first { $0.publicKeyLength == publicKey.count } ?? .p256
    }
}

/// One use of a token key's private key: signing, decrypting, or agreeing a key.
public struct TokenKeyUse: Sendable, Hashable {
    /// What the private key does.
    public enum Operation: Sendable, Hashable {
        /// `SecKeyCreateSignature`: signs `input` (a message or a digest, as the algorithm says).
        case sign
        /// `SecKeyCreateDecryptedData`: decrypts `input` (ECIES).
        case decrypt
        /// `SecKeyCopyKeyExchangeResult`: `input` is the peer's public key (X9.63); with the X9.63 KDF
        /// algorithms, the requested size and shared info.
        case keyExchange(requestedSize: Int?, sharedInfo: Data?)
        /// An ML-DSA signature of the message `input` with FIPS 204's context string (at most 255 bytes; empty
        /// for none), as CryptoKit's `signature(for:context:)`.
        case signWithContext(Data)
        /// ML-KEM decapsulation (CryptoKit's `decapsulate`): `input` is the ciphertext, the answer the 32-byte
        /// shared secret.
        case decapsulate
        /// Opens the seal only, as CryptoKit's `init(dataRepresentation:)` does: answered with success when this
        /// keychain made the key and it was not altered (-25293 otherwise; -25308 while its class is locked). The
        /// key is not used, no one is asked, and nothing is recorded.
        case checkSeal
    }

    /// The sealed private key (``TokenKey/sealed``).
    public var key: Data
    /// The operation.
    public var operation: Operation
    /// Apple's algorithm identifier (`SecKeyAlgorithm`'s string, such as `algid:sign:ECDSA:message-X962:SHA256`).
    public var algorithm: String
    /// The data the operation works on. A plaintext it returns is a secret; the input of a decryption is not.
    public var input: Data
    /// How the person may be asked when the key's access control needs it.
    public var authentication: TokenKeyAuthentication

    /// A use of `key`.
    public init(key: Data, operation: Operation, algorithm: String, input: Data, authentication: TokenKeyAuthentication = .init()) {
        self.key = key
        self.operation = operation
        self.algorithm = algorithm
        self.input = input
        self.authentication = authentication
    }
}

/// The authentication settings a token key carries from where it was made or found: the `LAContext`
/// whose proof it uses, the operation prompt, and whether it may prompt at all.
public struct TokenKeyAuthentication: Sendable, Hashable {
    /// The context whose proof the use relies on (`kSecUseAuthenticationContext`).
    public var context: AuthenticationContextID?
    /// What the prompt tells the person (`kSecUseOperationPrompt`).
    public var prompt: String
    /// False for `kSecUseAuthenticationUIFail` or a non-interactive context: a needed proof then fails
    /// with -25308 instead of prompting.
    public var interactive: Bool

    /// Settings; by default the call may prompt.
    public init(context: AuthenticationContextID? = nil, prompt: String = "", interactive: Bool = true) {
        self.context = context
        self.prompt = prompt
        self.interactive = interactive
    }
}
