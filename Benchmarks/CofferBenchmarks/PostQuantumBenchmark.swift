import CryptoKit
import Foundation
import KeychainModel
@_spi(Testing) import Security

/// Post-quantum keys the keychain keeps (`Benchmarks/post-quantum.sh`): ML-KEM-768 decapsulation and ML-DSA-65
/// signing with CryptoKit's `SecureEnclave` keys, embedded and through cofferd, beside swift-crypto's own keys in the
/// same run; and, for callgrind, a loop of each as one call of a counted function.
enum PostQuantumBenchmark {
    static func run(in scratch: URL, quick: Bool) throws {
        let rounds = quick ? 3 : 9
        let message = Data(repeating: 0x5A, count: 64)
        var rows: [Measurement] = []
        let software = try MLKEM768.PrivateKey()
        let ciphertext = try software.publicKey.encapsulate().encapsulated
        let signer = try MLDSA65.PrivateKey()
        rows.append(try Measurement.run("swift-crypto: ML-KEM-768 decapsulate", rounds: rounds, operations: 500) { _ = try software.decapsulate(ciphertext) })
        rows.append(try Measurement.run("swift-crypto: ML-DSA-65 sign", rounds: rounds, operations: 200) { _ = try signer.signature(for: message) })
        try SecurityTesting.withKeychain(at: scratch.appendingPathComponent("pq-embedded")) {
            rows += try keychainRows("embedded", rounds: rounds, message: message)
        }
        let daemon = try BenchmarkDaemon(scratch: scratch.appendingPathComponent("pq-daemon"))
        defer { daemon.stop() }
        try SecurityTesting.withKeychain(socket: daemon.socket) {
            rows += try keychainRows("through cofferd", rounds: rounds, message: message)
        }
        print("\n### Post-quantum keys the keychain keeps\n")
        print("| operation | median per op | min | max |")
        print("| --- | --- | --- | --- |")
        for row in rows { print(row.row) }
    }

    private static func keychainRows(_ label: String, rounds: Int, message: Data) throws -> [Measurement] {
        let kem = try SecureEnclave.MLKEM768.PrivateKey()
        let ciphertext = try kem.publicKey.encapsulate().encapsulated
        let dsa = try SecureEnclave.MLDSA65.PrivateKey()
        return [
            try Measurement.run("\(label): ML-KEM-768 decapsulate, `SecureEnclave.MLKEM768` key", rounds: rounds, operations: 500) {
                _ = try kem.decapsulate(ciphertext)
            },
            try Measurement.run("\(label): ML-DSA-65 sign, `SecureEnclave.MLDSA65` key", rounds: rounds, operations: 200) {
                _ = try dsa.signature(for: message)
            },
        ]
    }

    /// For callgrind: `count` decapsulations and signatures with swift-crypto's keys, then with keys an embedded
    /// keychain keeps, each one call of a counted function.
    static func profilingLoop(in scratch: URL, count: Int) throws {
        let message = Data(repeating: 0x5A, count: 64)
        let software = try MLKEM768.PrivateKey()
        let ciphertext = try software.publicKey.encapsulate().encapsulated
        let signer = try MLDSA65.PrivateKey()
        for _ in 0..<count { try countedSoftwareDecapsulate(software, ciphertext) }
        for _ in 0..<count { try countedSoftwareSign(signer, message) }
        try SecurityTesting.withKeychain(at: scratch.appendingPathComponent("pq-loop")) {
            let kem = try SecureEnclave.MLKEM768.PrivateKey()
            let kept = try kem.publicKey.encapsulate().encapsulated
            let dsa = try SecureEnclave.MLDSA65.PrivateKey()
            // The first use opens each seal (kept open after): outside the counted functions, as for P-256 keys.
            _ = try kem.decapsulate(kept)
            _ = try dsa.signature(for: message)
            for _ in 0..<count { try countedKeychainDecapsulate(kem, kept) }
            for _ in 0..<count { try countedKeychainSign(dsa, message) }
        }
        print("post-quantum loop: \(count) of each")
    }

    @inline(never) static func countedSoftwareDecapsulate(_ key: MLKEM768.PrivateKey, _ ciphertext: Data) throws {
        _ = try key.decapsulate(ciphertext)
    }

    @inline(never) static func countedSoftwareSign(_ key: MLDSA65.PrivateKey, _ message: Data) throws {
        _ = try key.signature(for: message)
    }

    @inline(never) static func countedKeychainDecapsulate(_ key: SecureEnclave.MLKEM768.PrivateKey, _ ciphertext: Data) throws {
        _ = try key.decapsulate(ciphertext)
    }

    @inline(never) static func countedKeychainSign(_ key: SecureEnclave.MLDSA65.PrivateKey, _ message: Data) throws {
        _ = try key.signature(for: message)
    }
}
