import Crypto
import CryptoExtras
import Foundation
import KeychainSelection
import KeychainModel
@_spi(Testing) import Security

/// Key operations through `SecKey`, next to swift-crypto called directly in the same run: P-256 sign,
/// verify and ECDH, RSA-2048 PKCS#1 v1.5 sign and OAEP decrypt, key generation; a P-256 key that never
/// leaves the keychain, embedded and through cofferd (next to the daemon's no-op round trip); and a key
/// found by tag and used in one call path, next to the find plus a direct sign.
enum KeysBenchmark {
    struct Figures {
        var rows: [ItemsBenchmark.Row]
        /// The daemon's no-op round trip (`lockStatus`).
        var noOpRoundTrip: Duration
    }

    static func run(in scratch: URL, operations: Int) throws -> Figures {
        let message = Data(repeating: 0x5A, count: 64)
        var rows: [ItemsBenchmark.Row] = []
        func row(_ operation: String, count: Int = operations, _ body: () throws -> Void) throws {
            rows.append(.init(size: 0, operation: operation, samples: try ItemsBenchmark.timed(count, body)))
        }

        // swift-crypto alone.
        let p256 = P256.Signing.PrivateKey()
        let p256Signature = try p256.signature(for: message)
        let agreement = P256.KeyAgreement.PrivateKey()
        let peer = P256.KeyAgreement.PrivateKey().publicKey
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let rsaEncryption = try _RSA.Encryption.PrivateKey(derRepresentation: rsa.derRepresentation)
        let oaepCiphertext = try rsaEncryption.publicKey.encrypt(Data(repeating: 1, count: 32), padding: .PKCS1_OAEP_SHA256)
        try row("swift-crypto: P-256 sign") { _ = try p256.signature(for: message) }
        try row("swift-crypto: P-256 verify") { guard p256.publicKey.isValidSignature(p256Signature, for: message) else { throw KeychainStatus.param } }
        try row("swift-crypto: P-256 ECDH") { _ = try agreement.sharedSecretFromKeyAgreement(with: peer) }
        try row("swift-crypto: RSA-2048 sign (PKCS#1 v1.5, SHA-256)") { _ = try rsa.signature(for: message, padding: .insecurePKCS1v1_5) }
        try row("swift-crypto: RSA-2048 OAEP decrypt (SHA-256)") { _ = try rsaEncryption.decrypt(oaepCiphertext, padding: .PKCS1_OAEP_SHA256) }
        try row("swift-crypto: P-256 key generation") { _ = P256.Signing.PrivateKey() }
        try row("swift-crypto: RSA-2048 key generation", count: max(operations / 100, 5)) { _ = try _RSA.Signing.PrivateKey(keySize: .bits2048) }

        // The same through SecKey, software keys (the embedded keychain is not involved).
        let secP256 = try created([kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256])
        let secP256Public = SecKeyCopyPublicKey(secP256)!
        let secSignature = try sign(secP256, .ecdsaSignatureMessageX962SHA256, message)
        let secAgreement = try created([kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256])
        let secPeer = SecKeyCopyPublicKey(try created([kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256]))!
        let secRSA = try created([kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 2048])
        var encryptError: Unmanaged<CFError>?
        let secCiphertext =
            SecKeyCreateEncryptedData(SecKeyCopyPublicKey(secRSA)!, .rsaEncryptionOAEPSHA256, Data(repeating: 1, count: 32) as CFData, &encryptError)! as Data
        try row("SecKey: P-256 sign") { _ = try sign(secP256, .ecdsaSignatureMessageX962SHA256, message) }
        try row("SecKey: P-256 verify") {
            guard SecKeyVerifySignature(secP256Public, .ecdsaSignatureMessageX962SHA256, message as CFData, secSignature as CFData, nil) else {
                throw KeychainStatus.param
            }
        }
        try row("SecKey: P-256 ECDH") {
            guard SecKeyCopyKeyExchangeResult(secAgreement, .ecdhKeyExchangeStandard, secPeer, [:] as CFDictionary, nil) != nil else {
                throw KeychainStatus.param
            }
        }
        try row("SecKey: RSA-2048 sign (PKCS#1 v1.5, SHA-256)") { _ = try sign(secRSA, .rsaSignatureMessagePKCS1v15SHA256, message) }
        try row("SecKey: RSA-2048 OAEP decrypt (SHA-256)") {
            guard SecKeyCreateDecryptedData(secRSA, .rsaEncryptionOAEPSHA256, secCiphertext as CFData, nil) != nil else { throw KeychainStatus.param }
        }
        try row("SecKey: P-256 key generation") {
            _ = try created([kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256])
        }
        try row("SecKey: RSA-2048 key generation", count: max(operations / 100, 5)) {
            _ = try created([kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 2048])
        }

        // Keys in the embedded keychain: a key that never leaves, and a software key found by tag, then used.
        let embeddedFolder = scratch.appendingPathComponent("keys-embedded")
        try SecurityTesting.withKeychain(at: embeddedFolder) {
            let enclave = try created([
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            ])
            try row("embedded: P-256 sign with a key that never leaves") { _ = try sign(enclave, .ecdsaSignatureMessageX962SHA256, message) }
            _ = try created([
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Data("bench.signing".utf8),
            ])
            let byTag: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data("bench.signing".utf8),
                kSecAttrKeyClass as String: kSecAttrKeyClassPrivate, kSecReturnRef as String: true,
            ]
            let byTagData = byTag.merging([kSecReturnRef as String: false, kSecReturnData as String: true]) { _, new in new }
            try row("embedded: find a key by tag (`SecItemCopyMatching`, its data)") {
                var found: CFTypeRef?
                guard SecItemCopyMatching(byTagData as CFDictionary, &found) == errSecSuccess else { throw KeychainStatus.itemNotFound }
            }
            try row("embedded: find by tag and sign (`SecItemCopyMatching` → `SecKey`, `SecKeyCreateSignature`)") {
                var found: CFTypeRef?
                guard SecItemCopyMatching(byTag as CFDictionary, &found) == errSecSuccess, let key = found as? SecKey else { throw KeychainStatus.itemNotFound }
                _ = try sign(key, .ecdsaSignatureMessageX962SHA256, message)
            }
        }

        // Through cofferd: a key that never leaves signs in the daemon's process.
        let daemon = try BenchmarkDaemon(scratch: scratch.appendingPathComponent("keys-daemon"))
        defer { daemon.stop() }
        let client = DaemonKeychain(socketPath: daemon.socket)
        try row("daemon: no-op round trip (lock status)") { _ = try client.blocking.lockStatus() }
        try SecurityTesting.withKeychain(socket: daemon.socket) {
            let enclave = try created([
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            ])
            try row("daemon: P-256 sign with a key that never leaves") { _ = try sign(enclave, .ecdsaSignatureMessageX962SHA256, message) }
        }
        let noOp = rows.first { $0.operation.hasPrefix("daemon: no-op") }!.p50
        return Figures(rows: rows, noOpRoundTrip: noOp)
    }

    private static func created(_ parameters: [String: Any]) throws -> SecKey {
        var error: Unmanaged<CFError>?
        guard let key = SecKeyCreateRandomKey(parameters as CFDictionary, &error) else {
            throw KeychainStatus(code: Int32(truncatingIfNeeded: error.map { CFErrorGetCode($0.takeRetainedValue()) } ?? -50))
        }
        return key
    }

    private static func sign(_ key: SecKey, _ algorithm: SecKeyAlgorithm, _ message: Data) throws -> Data {
        var error: Unmanaged<CFError>?
        guard let signature = SecKeyCreateSignature(key, algorithm, message as CFData, &error) else {
            throw KeychainStatus(code: Int32(truncatingIfNeeded: error.map { CFErrorGetCode($0.takeRetainedValue()) } ?? -50))
        }
        return signature as Data
    }
}
