/// The rule of which keys the keychain keeps (keys whose private part never leaves it), stated once as data:
/// each kind's key type, its size and what its private key does. The front ends ask it before they ask the
/// keychain for a key, and the keychain checks every creation and use against it.
extension TokenKeyCreation.Kind {
    /// What a kept private key is asked to do, without the operation's parameters.
    public enum Use: Sendable, Hashable, CaseIterable {
        /// Signs a message or a digest.
        case sign
        /// Decrypts (ECIES).
        case decrypt
        /// Agrees a secret with a peer's public key (ECDH).
        case keyExchange
        /// Recovers a shared secret from a ciphertext made for its public key (ML-KEM).
        case decapsulate
    }

    /// The kind's `kSecAttrKeyType`, as Apple numbers it: 73 (`kSecAttrKeyTypeECSECPrimeRandom`), 105
    /// (`kSecAttrKeyTypeEd25519`), and the numbers Apple's Security gives ML-KEM (110) and ML-DSA (111), which its
    /// public interface does not offer; 0 for X-Wing, which Apple's Security has no type for.
    public var keyTypeCode: Int {
        switch self {
        case .p256: 73
        case .ed25519: 105
        case .mlkem768, .mlkem1024: 110
        case .mldsa65, .mldsa87: 111
        case .xwing: 0
        }
    }

    /// The kind's one size, as Apple's Security writes it: 256 bits for P-256 and Ed25519, the parameter set for
    /// ML-KEM (768, 1024) and ML-DSA (65, 87).
    public var sizeInBits: Int {
        switch self {
        case .p256, .ed25519, .xwing: 256
        case .mlkem768: 768
        case .mlkem1024: 1024
        case .mldsa65: 65
        case .mldsa87: 87
        }
    }

    /// The length of the kind's public key: 65 (X9.63), 32, FIPS 203's and 204's encodings, and X-Wing's (ML-KEM-768's
    /// then X25519's).
    public var publicKeyLength: Int {
        switch self {
        case .p256: 65
        case .ed25519: 32
        case .mlkem768: 1184
        case .mlkem1024: 1568
        case .mldsa65: 1952
        case .mldsa87: 2592
        case .xwing: 1216
        }
    }

    /// Whether the kind is one of the post-quantum kinds (ML-KEM, ML-DSA).
    public var isPostQuantum: Bool { postQuantumName != nil }

    /// The standard's name of a post-quantum kind's parameter set (`ML-KEM-768`…, `X-Wing`), which names it to the
    /// cryptography; nil for P-256 and Ed25519.
    public var postQuantumName: String? {
        switch self {
        case .p256, .ed25519: nil
        case .mlkem768: "ML-KEM-768"
        case .mlkem1024: "ML-KEM-1024"
        case .mldsa65: "ML-DSA-65"
        case .mldsa87: "ML-DSA-87"
        case .xwing: "X-Wing"
        }
    }

    /// What the kind's private key does: P-256 signs, decrypts and agrees keys; Ed25519 and ML-DSA only sign;
    /// ML-KEM and X-Wing only decapsulate.
    public var uses: Set<Use> {
        switch self {
        case .p256: [.sign, .decrypt, .keyExchange]
        case .ed25519, .mldsa65, .mldsa87: [.sign]
        case .mlkem768, .mlkem1024, .xwing: [.decapsulate]
        }
    }

    /// The kind of key the keychain keeps for a key type (Apple's number) and size; nil when it keeps none
    /// of that type and size.
    public init?(keyTypeCode: Int, sizeInBits: Int) {
        guard let kind = Self.allCases.first(where: { $0.keyTypeCode == keyTypeCode && $0.sizeInBits == sizeInBits }) else {
            return nil
        }
        self = kind
    }

    /// What the keychain says when asked to keep a key it does not keep.
    public static var rule: String {
        "a key that never leaves the keychain (kSecAttrTokenIDSecureEnclave) is a 256-bit kSecAttrKeyTypeECSECPrimeRandom (P-256) or kSecAttrKeyTypeEd25519 key"
    }
}

extension TokenKeyUse.Operation {
    /// The use, without its parameters; nil for ``checkSeal``, which uses nothing.
    public var use: TokenKeyCreation.Kind.Use? {
        switch self {
        case .sign, .signWithContext: .sign
        case .decrypt: .decrypt
        case .keyExchange: .keyExchange
        case .decapsulate: .decapsulate
        case .checkSeal: nil
        }
    }
}
