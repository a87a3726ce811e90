import Crypto
import Foundation
import KeyCrypto
import KeychainClient
import KeychainModel
import KeychainOperations
import Query

/// An ML-KEM or ML-DSA key whose private part the keychain keeps (CryptoKit's `SecureEnclave.MLKEM768` and its
/// siblings): its handle, its kind, and how its uses authenticate. The keychain decapsulates and signs; this process
/// holds the public key and the seal.
public struct KeptPostQuantumKey: Sendable, Hashable {
    /// The keychain's handle of the key.
    public let handle: TokenKey
    /// The kind of key: one of the post-quantum kinds.
    public let kind: TokenKeyCreation.Kind
    /// The context, prompt and interactivity the key's uses carry.
    public var authentication: TokenKeyAuthentication

    /// The key whose seal is `sealed`; nil when the bytes are no post-quantum key's handle of `kind`, or its
    /// public key is not one of that kind.
    public init?(sealed: Data, kind: TokenKeyCreation.Kind, authentication: TokenKeyAuthentication = .init()) {
        guard let handle = TokenKey(sealed: sealed), handle.kind == kind else { return nil }
        self.init(handle, authentication: authentication)
    }

    private init?(_ handle: TokenKey, authentication: TokenKeyAuthentication) {
        guard let algorithm = PostQuantumAlgorithm(standardName: handle.kind.postQuantumName),
            PostQuantumPrivateKey.isValidPublicKey(handle.publicKey, of: algorithm)
        else { return nil }
        self.handle = handle
        kind = handle.kind
        self.authentication = authentication
    }

    /// A new key of `kind` made inside the keychain under `accessControl`, waiting on the keychain; `tiedToItem` for
    /// a key about to be stored as a key item (``TokenKeyCreation/tiedToItem``).
    public static func generate(
        _ kind: TokenKeyCreation.Kind, accessControl: AccessControl, tiedToItem: Bool = false,
        authentication: TokenKeyAuthentication = .init(), through client: any KeychainClient
    ) throws(KeychainFailure) -> KeptPostQuantumKey {
        guard kind.isPostQuantum else { throw KeychainFailure(.param, reason: "\(kind) is not a post-quantum kind") }
        let creation = TokenKeyCreation(accessControl: accessControl, kind: kind, tiedToItem: tiedToItem)
        let handle = try client.sendBlocking(.createTokenKey(creation)).tokenKeyResult()
        guard let key = KeptPostQuantumKey(handle, authentication: authentication) else {
            throw KeychainFailure(.internal, reason: "the keychain answered with a key of another kind")
        }
        return key
    }

    /// The key's parameter set.
    public var algorithm: PostQuantumAlgorithm {
        // Checked when the handle was read: a post-quantum kind.
        PostQuantumAlgorithm(standardName: kind.postQuantumName) ?? .mlkem768
    }

    /// The public key (`rawRepresentation`), checked when the handle was read.
    public var publicKey: Data { handle.publicKey }

    /// The 32-byte shared secret the ML-KEM or X-Wing ciphertext `ciphertext` carries, recovered in the keychain.
    public func decapsulate(_ ciphertext: Data, through client: any KeychainClient) throws(KeychainFailure) -> Data {
        try use(.decapsulate, algorithm: algorithm.useIdentifier, input: ciphertext, through: client)
    }

    /// An ML-DSA signature of `message` with FIPS 204's `context` (empty for none), made in the keychain.
    public func signature(for message: Data, context: Data, through client: any KeychainClient) throws(KeychainFailure) -> Data {
        try use(.signWithContext(context), algorithm: algorithm.useIdentifier, input: message, through: client)
    }

    private func use(
        _ operation: TokenKeyUse.Operation, algorithm: String, input: Data, through client: any KeychainClient
    ) throws(KeychainFailure) -> Data {
        let use = TokenKeyUse(key: handle.sealed, operation: operation, algorithm: algorithm, input: input, authentication: authentication)
        return try client.sendBlocking(.useTokenKey(use)).tokenKeyUseResult()
    }
}

extension KeptPostQuantumKey {
    /// The key item's attributes, as Apple's Security writes a Secure Enclave ML-KEM or ML-DSA key's (its private
    /// `kSecAttrKeyType` numbers 110 and 111, the parameter set as the size): a private key, sensitive, never
    /// extractable, that decapsulates (`decr`, `unwp`) or signs, labelled with the SHA-1 of its public key; the
    /// seal as its token object.
    public func attributeDictionary() -> [String: KeychainValue] {
        let decapsulates = kind.uses.contains(.decapsulate)
        let numbers: [(String, Int)] = [
            ("kcls", 1), ("type", kind.keyTypeCode), ("bsiz", kind.sizeInBits), ("esiz", kind.sizeInBits), ("perm", 1), ("priv", 1),
            ("modi", 1), ("sens", 1), ("asen", 1), ("extr", 0), ("next", 1), ("encr", 0), ("decr", decapsulates ? 1 : 0), ("drve", 0),
            ("sign", decapsulates ? 0 : 1), ("vrfy", 0), ("snrc", 0), ("vyrc", 0), ("wrap", 0), ("unwp", decapsulates ? 1 : 0),
        ]
        var attributes: [String: KeychainValue] = [:]
        for (code, number) in numbers { attributes[code] = KeyItem.appleForm(code: code, number: Int64(number)) }
        attributes["klbl"] = .data(Data(Insecure.SHA1.hash(data: publicKey)))
        return KeyItem.tokenKeyAttributes(attributes, sealed: handle.sealed, accessControl: handle.accessControl)
    }

    /// The key as the value of `kSecValueRef` in a dictionary the keychain reads.
    public var itemReference: ItemReference { KeyItem.reference(attributes: attributeDictionary()) }
}
