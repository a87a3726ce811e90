import Foundation
import Query

// Apple's key attribute values (keychain reference §7), from Query's table of them (written from Apple's
// SecItemConstants.c). The key class and type values are decimal strings, which the keychain stores and returns as
// numbers (§7.1).
// `nonisolated(unsafe)`: see CFString+ItemConstants.swift.

/// A public key.
nonisolated(unsafe) public let kSecAttrKeyClassPublic: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecAttrKeyClassPublic")
/// A private key.
nonisolated(unsafe) public let kSecAttrKeyClassPrivate: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecAttrKeyClassPrivate")
/// A symmetric key.
nonisolated(unsafe) public let kSecAttrKeyClassSymmetric: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecAttrKeyClassSymmetric")
/// RSA.
nonisolated(unsafe) public let kSecAttrKeyTypeRSA: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecAttrKeyTypeRSA")
/// Elliptic curve (the older name of ``kSecAttrKeyTypeECSECPrimeRandom``).
nonisolated(unsafe) public let kSecAttrKeyTypeEC: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecAttrKeyTypeEC")
/// Elliptic curve over a prime field (P-256, P-384, P-521).
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandom: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecAttrKeyTypeECSECPrimeRandom")
/// `kSecAttrKeyTypeECSECPrimeRandomPKA` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandomPKA: CFString = .tableValue(
    QueryConstant.keyAttributeValues, "kSecAttrKeyTypeECSECPrimeRandomPKA")
/// `kSecAttrKeyTypeSecureEnclaveAttestation` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrKeyTypeSecureEnclaveAttestation: CFString = .tableValue(
    QueryConstant.keyAttributeValues, "kSecAttrKeyTypeSecureEnclaveAttestation")
/// `kSecAttrKeyTypeSecureEnclaveAnonymousAttestation` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrKeyTypeSecureEnclaveAnonymousAttestation: CFString = .tableValue(
    QueryConstant.keyAttributeValues, "kSecAttrKeyTypeSecureEnclaveAnonymousAttestation")
/// Ed25519.
nonisolated(unsafe) public let kSecAttrKeyTypeEd25519: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecAttrKeyTypeEd25519")
/// X25519.
nonisolated(unsafe) public let kSecAttrKeyTypeX25519: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecAttrKeyTypeX25519")
/// Ed448.
nonisolated(unsafe) public let kSecAttrKeyTypeEd448: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecAttrKeyTypeEd448")
/// X448.
nonisolated(unsafe) public let kSecAttrKeyTypeX448: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecAttrKeyTypeX448")
/// Kyber (`109`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrKeyTypeKyber: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecAttrKeyTypeKyber")
/// ML-KEM (`110`; private on Apple platforms): the Secure Enclave ML-KEM keys' items. `SecKey` has no ML-KEM
/// keys here, so a search leaves such an item's reference out of its results.
nonisolated(unsafe) public let kSecAttrKeyTypeMLKEM: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecAttrKeyTypeMLKEM")
/// ML-DSA (`111`; private on Apple platforms): the Secure Enclave ML-DSA keys' items. `SecKey` has no ML-DSA
/// keys here, so a search leaves such an item's reference out of its results.
nonisolated(unsafe) public let kSecAttrKeyTypeMLDSA: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecAttrKeyTypeMLDSA")
/// The Secure Enclave token, as the value of ``kSecAttrTokenID``.
nonisolated(unsafe) public let kSecAttrTokenIDSecureEnclave: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecAttrTokenIDSecureEnclave")
/// The dictionary of attributes for the private key of a new key pair.
nonisolated(unsafe) public let kSecPrivateKeyAttrs: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecPrivateKeyAttrs")
/// The dictionary of attributes for the public key of a new key pair.
nonisolated(unsafe) public let kSecPublicKeyAttrs: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecPublicKeyAttrs")

// Coffer's extension: where the private half of a key the keychain keeps lives.

/// In ``SecKeyCopyAttributes``'s answer for a key the keychain keeps (`kSecAttrTokenIDSecureEnclave`), where its
/// private half lives: ``kSecAttrCofferKeyHolderTPM`` or ``kSecAttrCofferKeyHolderKeystore``. Coffer's, not Apple's.
nonisolated(unsafe) public let kSecAttrCofferKeyHolder: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecAttrCofferKeyHolder")
/// The private key is inside the machine's TPM: a P-256 key of a keychain bound to one.
nonisolated(unsafe) public let kSecAttrCofferKeyHolderTPM: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecAttrCofferKeyHolderTPM")
/// The private key is sealed by the keystore (no TPM, or a kind the TPM does not keep, such as Ed25519).
nonisolated(unsafe) public let kSecAttrCofferKeyHolderKeystore: CFString = .tableValue(QueryConstant.keyAttributeValues, "kSecAttrCofferKeyHolderKeystore")
