import Foundation

/// Keys whose private part never leaves Coffer's keychain: Apple's Secure Enclave, on Linux.
///
/// The private key is made and used inside the keystore — in cofferd's process when a daemon serves this
/// user — and this process only ever holds its public key and a handle (``SecureEnclave/P256/Signing/PrivateKey/dataRepresentation``)
/// that only the keychain that made it can use. Each use is checked against the key's access control, and
/// asks the person when it needs them (the `LAContext` passed as `authenticationContext` can prove it first).
public enum SecureEnclave {
    /// Whether keys of this kind can be made: true wherever a Coffer keychain is available to this process.
    public static var isAvailable: Bool { true }

    /// ML-KEM-768 keys (FIPS 203): decapsulation in the keychain.
    public enum MLKEM768 {}
    /// ML-KEM-1024 keys: decapsulation in the keychain.
    public enum MLKEM1024 {}
    /// ML-DSA-65 keys (FIPS 204): signing in the keychain.
    public enum MLDSA65 {}
    /// ML-DSA-87 keys: signing in the keychain.
    public enum MLDSA87 {}

    /// P-256 keys.
    public enum P256 {
        /// Signing keys (ECDSA with SHA-256).
        public enum Signing {}
        /// Key-agreement keys (ECDH).
        public enum KeyAgreement {}
    }
}
