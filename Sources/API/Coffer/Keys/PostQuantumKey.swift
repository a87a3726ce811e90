import Foundation
import KeyCrypto
import KeychainKeys
import KeychainOperations

/// An ML-KEM or ML-DSA private key the keychain keeps and stores as a key item: the key of CryptoKit's
/// `SecureEnclave.MLKEM768` and its siblings, found again by its tag. Its seed never leaves the keychain (cofferd's
/// process with the daemon); the keychain decapsulates (``Keychain/decapsulate(_:with:)``) and signs
/// (``Keychain/signature(for:context:with:)``) with it after checking its access control, and refuses it once its
/// item is deleted.
public struct PostQuantumKey: Sendable, Hashable {
    /// The parameter sets a kept post-quantum key may have.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// ML-KEM-768 (FIPS 203): key encapsulation.
        case mlkem768 = "ml-kem-768"
        /// ML-KEM-1024: key encapsulation.
        case mlkem1024 = "ml-kem-1024"
        /// ML-DSA-65 (FIPS 204): signatures.
        case mldsa65 = "ml-dsa-65"
        /// ML-DSA-87: signatures.
        case mldsa87 = "ml-dsa-87"

        var tokenKind: TokenKeyCreation.Kind {
            switch self {
            case .mlkem768: .mlkem768
            case .mlkem1024: .mlkem1024
            case .mldsa65: .mldsa65
            case .mldsa87: .mldsa87
            }
        }

        init?(_ kind: TokenKeyCreation.Kind) {
            guard let found = Self.allCases.first(where: { $0.tokenKind == kind }) else { return nil }
            self = found
        }

        /// Whether keys of this kind decapsulate (ML-KEM) rather than sign (ML-DSA).
        public var isKeyEncapsulation: Bool { tokenKind.uses.contains(.decapsulate) }
    }

    let kept: KeptPostQuantumKey

    /// The key's parameter set.
    public var kind: Kind { Kind(kept.kind) ?? .mlkem768 }
    /// The public key, FIPS 203's or 204's encoding (CryptoKit's `rawRepresentation`).
    public var publicKey: Data { kept.publicKey }
    /// The handle CryptoKit's `SecureEnclave` keys call `dataRepresentation`: the same key through CryptoKit.
    public var dataRepresentation: Data { kept.handle.sealed }
    /// The access control its uses are checked against.
    public var accessControl: AccessControl { kept.handle.accessControl }

    init(_ kept: KeptPostQuantumKey) { self.kept = kept }
}
