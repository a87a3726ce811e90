/// The post-quantum parameter sets a kept key may have: ML-KEM (FIPS 203) and ML-DSA (FIPS 204), as CryptoKit names
/// them, and X-Wing.
public enum PostQuantumAlgorithm: Sendable, Hashable, CaseIterable {
    case mlkem768, mlkem1024, mldsa65, mldsa87
    /// X-Wing: ML-KEM-768 with X25519 (draft-connolly-cfrg-xwing-kem), CryptoKit's `XWingMLKEM768X25519`.
    case xwing

    /// The length of the private key's seed, its `seedRepresentation`: 64 bytes for ML-KEM (d ‖ z), 32 for ML-DSA (ξ).
    public var seedLength: Int {
        switch self {
        case .mlkem768, .mlkem1024: 64
        case .mldsa65, .mldsa87, .xwing: 32
        }
    }

    /// The length of an ML-KEM ciphertext; nil for ML-DSA.
    public var ciphertextLength: Int? {
        switch self {
        case .mlkem768: 1088
        case .mlkem1024: 1568
        case .xwing: 1120
        case .mldsa65, .mldsa87: nil
        }
    }

    /// Whether the algorithm encapsulates keys (ML-KEM) rather than signs (ML-DSA).
    public var isKeyEncapsulation: Bool { ciphertextLength != nil }

    /// The parameter set the standards name `name` (`ML-KEM-768`, `ML-DSA-65`…); nil for another name or none.
    public init?(standardName name: String?) {
        guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }

    /// The name standards give the parameter set.
    public var name: String {
        switch self {
        case .mlkem768: "ML-KEM-768"
        case .mlkem1024: "ML-KEM-1024"
        case .mldsa65: "ML-DSA-65"
        case .mldsa87: "ML-DSA-87"
        case .xwing: "X-Wing"
        }
    }

    /// The algorithm a kept key's use names: Apple Security's for ML-KEM and ML-DSA, Coffer's for X-Wing.
    public var useIdentifier: String {
        switch self {
        case .mlkem768, .mlkem1024: Self.keyEncapsulationIdentifier
        case .mldsa65, .mldsa87: Self.signatureIdentifier
        case .xwing: "coffer:kem:X-Wing"
        }
    }
}

extension PostQuantumAlgorithm {
    /// The algorithm Apple's Security names ML-KEM decapsulation with (`kSecKeyAlgorithmKEMMLKEM`, private there).
    public static let keyEncapsulationIdentifier = "algid:kem:ML-KEM"
    /// The algorithm Apple's Security names ML-DSA signatures of a message with (`kSecKeyAlgorithmMLDSASignatureMessage`,
    /// private there).
    public static let signatureIdentifier = "algid:sign:ML-DSA:message"
}
