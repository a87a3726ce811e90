import Foundation

// Apple's key attribute values (keychain reference §7), written here from Apple's SecItemConstants.c. The key
// class and type values are decimal strings, which the keychain stores and returns as numbers (§7.1).
// `nonisolated(unsafe)`: see CFString+ItemConstants.swift.

/// A public key.
nonisolated(unsafe) public let kSecAttrKeyClassPublic: CFString = .constant("0")
/// A private key.
nonisolated(unsafe) public let kSecAttrKeyClassPrivate: CFString = .constant("1")
/// A symmetric key.
nonisolated(unsafe) public let kSecAttrKeyClassSymmetric: CFString = .constant("2")
/// RSA.
nonisolated(unsafe) public let kSecAttrKeyTypeRSA: CFString = .constant("42")
/// Elliptic curve (the older name of ``kSecAttrKeyTypeECSECPrimeRandom``).
nonisolated(unsafe) public let kSecAttrKeyTypeEC: CFString = .constant("73")
/// Elliptic curve over a prime field (P-256, P-384, P-521).
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandom: CFString = .constant("73")
/// `kSecAttrKeyTypeECSECPrimeRandomPKA` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandomPKA: CFString = .constant("2147483678")
/// `kSecAttrKeyTypeSecureEnclaveAttestation` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrKeyTypeSecureEnclaveAttestation: CFString = .constant("2147483679")
/// `kSecAttrKeyTypeSecureEnclaveAnonymousAttestation` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrKeyTypeSecureEnclaveAnonymousAttestation: CFString = .constant("2147483680")
/// Ed25519.
nonisolated(unsafe) public let kSecAttrKeyTypeEd25519: CFString = .constant("105")
/// X25519.
nonisolated(unsafe) public let kSecAttrKeyTypeX25519: CFString = .constant("106")
/// Ed448.
nonisolated(unsafe) public let kSecAttrKeyTypeEd448: CFString = .constant("107")
/// X448.
nonisolated(unsafe) public let kSecAttrKeyTypeX448: CFString = .constant("108")
/// Kyber.
nonisolated(unsafe) public let kSecAttrKeyTypeKyber: CFString = .constant("109")
/// ML-KEM.
nonisolated(unsafe) public let kSecAttrKeyTypeMLKEM: CFString = .constant("110")
/// ML-DSA.
nonisolated(unsafe) public let kSecAttrKeyTypeMLDSA: CFString = .constant("111")
/// The Secure Enclave token, as the value of ``kSecAttrTokenID``.
nonisolated(unsafe) public let kSecAttrTokenIDSecureEnclave: CFString = .constant("com.apple.setoken")
/// The dictionary of attributes for the private key of a new key pair.
nonisolated(unsafe) public let kSecPrivateKeyAttrs: CFString = .constant("private")
/// The dictionary of attributes for the public key of a new key pair.
nonisolated(unsafe) public let kSecPublicKeyAttrs: CFString = .constant("public")

// Coffer's extension: where the private half of a key the keychain keeps lives.

/// In ``SecKeyCopyAttributes``'s answer for a key the keychain keeps (`kSecAttrTokenIDSecureEnclave`), where its
/// private half lives: ``kSecAttrCofferKeyHolderTPM`` or ``kSecAttrCofferKeyHolderKeystore``. Coffer's, not Apple's.
nonisolated(unsafe) public let kSecAttrCofferKeyHolder: CFString = .constant("coffer-key-holder")
/// The private key is inside the machine's TPM: a P-256 key of a keychain bound to one.
nonisolated(unsafe) public let kSecAttrCofferKeyHolderTPM: CFString = .constant("tpm")
/// The private key is sealed by the keystore (no TPM, or a kind the TPM does not keep, such as Ed25519).
nonisolated(unsafe) public let kSecAttrCofferKeyHolderKeystore: CFString = .constant("keystore")
