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
    }

    /// The kind's `kSecAttrKeyType`, as Apple numbers it: 73 (`kSecAttrKeyTypeECSECPrimeRandom`) or 105
    /// (`kSecAttrKeyTypeEd25519`).
    public var keyTypeCode: Int {
        switch self {
        case .p256: 73
        case .ed25519: 105
        }
    }

    /// The kind's one size: 256 bits.
    public var sizeInBits: Int { 256 }

    /// What the kind's private key does: P-256 signs, decrypts and agrees keys; Ed25519 only signs.
    public var uses: Set<Use> {
        switch self {
        case .p256: [.sign, .decrypt, .keyExchange]
        case .ed25519: [.sign]
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
    /// The use, without its parameters.
    public var use: TokenKeyCreation.Kind.Use {
        switch self {
        case .sign: .sign
        case .decrypt: .decrypt
        case .keyExchange: .keyExchange
        }
    }
}
