import Foundation
import KeychainModel
@_spi(Testing) import Security

/// A steady loop for an instruction counter (`Benchmarks/instructions.sh`): adds and signatures as Apple code
/// makes them, on an embedded keychain, each one call of a function the counter names, so that the cost of one
/// is the function's count over the number printed. (Their names share no word with the type's, so that Swift's
/// mangling spells each out and the counter finds it.)
enum ProfilingLoop {
    /// `count` adds (`SecItemAdd` of a generic password), then `count` signatures with a software P-256 key and
    /// `count` with a P-256 key the keychain keeps (`SecKeyCreateSignature`), printing how many of each.
    static func run(in scratch: URL, count: Int) throws {
        let folder = scratch.appendingPathComponent("add-sign-loop")
        try SecurityTesting.withKeychain(at: folder) {
            let software = try makeKey(enclave: false)
            let enclave = try makeKey(enclave: true)
            let message = Data("challenge".utf8) as CFData
            // Each kind's first call opens what it needs (the engine, the kept key's seal): made here, outside the
            // counted functions.
            let first: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "bench", kSecAttrAccount as String: "first",
                kSecValueData as String: Data("secret".utf8),
            ]
            guard SecItemAdd(first as CFDictionary, nil) == errSecSuccess,
                SecKeyCreateSignature(software, .ecdsaSignatureMessageX962SHA256, message, nil) != nil,
                SecKeyCreateSignature(enclave, .ecdsaSignatureMessageX962SHA256, message, nil) != nil
            else { throw KeychainStatus.internal }
            for account in 0..<count { try countedAdd(account: account) }
            for _ in 0..<count { try countedSoftwareSignature(software, message) }
            for _ in 0..<count { try countedKeptSignature(enclave, message) }
        }
        print("add and sign loop: \(count) adds, \(count) software signatures, \(count) signatures by a kept key")
    }

    /// A P-256 key: in software, or kept by the keychain (`enclave`), stored as a key item or not.
    static func makeKey(enclave: Bool, stored: Bool = false) throws -> SecKey {
        var parameters: [String: Any] = [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256]
        if enclave {
            parameters[kSecAttrTokenID as String] = kSecAttrTokenIDSecureEnclave
            parameters[kSecPrivateKeyAttrs as String] = [kSecAttrIsPermanent as String: stored]
        }
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateRandomKey(parameters as CFDictionary, &error) else { throw KeychainStatus.internal }
        return key
    }

    /// One add as Apple code makes it: a Foundation dictionary and `SecItemAdd`.
    @inline(never)
    static func countedAdd(account: Int) throws {
        let item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "bench",
            kSecAttrAccount as String: "account-\(account)", kSecValueData as String: Data("secret-\(account)".utf8),
        ]
        let status = SecItemAdd(item as CFDictionary, nil)
        guard status == errSecSuccess else { throw KeychainStatus(code: status) }
    }

    /// One ECDSA signature with a software key.
    @inline(never)
    static func countedSoftwareSignature(_ key: SecKey, _ message: CFData) throws {
        guard SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message, nil) != nil else { throw KeychainStatus.internal }
    }

    /// One ECDSA signature by a key the keychain keeps (the keychain in this process).
    @inline(never)
    static func countedKeptSignature(_ key: SecKey, _ message: CFData) throws {
        guard let signature = SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message, nil), (signature as Data).count > 8 else {
            throw KeychainStatus.internal
        }
    }
}
