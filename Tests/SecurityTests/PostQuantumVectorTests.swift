import CryptoKit
import Foundation
import KeyCrypto
import KeychainModel
import Testing

/// Known answers for ML-KEM, ML-DSA and X-Wing through what Coffer exports: CryptoKit's types as `import CryptoKit`
/// gives them on Linux, and the keychain's own rebuild of a kept key from its seal's seed (`PostQuantumPrivateKey`).
/// The vectors are the NIST, BoringSSL, Wycheproof and IETF ones swift-crypto ships, read from its checkout beside
/// this build.
@Suite struct PostQuantumVectorTests {
    @Test(arguments: [("ML-KEM-768", "CryptoTests/KEM/MLKEM768_BSSLKAT.json"), ("ML-KEM-1024", "CryptoTests/KEM/MLKEM1024_BSSLKAT.json")])
    func mlkemKeysFromTheirSeedsHaveTheStandardsPublicKeys(name: String, file: String) throws {
        let vectors = try SwiftCryptoVectors.array(file)
        #expect(vectors.count == 100)
        let algorithm = try #require(PostQuantumAlgorithm(standardName: name))
        for vector in vectors {
            let seed = try SwiftCryptoVectors.bytes(vector["dz"]), publicKey = try SwiftCryptoVectors.bytes(vector["pk"])
            let exported: Data
            let sent: KEM.EncapsulationResult
            if algorithm == .mlkem768 {
                exported = try MLKEM768.PrivateKey(seedRepresentation: seed, publicKey: nil).publicKey.rawRepresentation
                sent = try MLKEM768.PublicKey(rawRepresentation: publicKey).encapsulate()
            } else {
                exported = try MLKEM1024.PrivateKey(seedRepresentation: seed, publicKey: nil).publicKey.rawRepresentation
                sent = try MLKEM1024.PublicKey(rawRepresentation: publicKey).encapsulate()
            }
            #expect(exported == publicKey)
            // The keychain's path: the seed a seal holds, checked against the seal's public key, then decapsulating.
            let kept = try PostQuantumPrivateKey(algorithm, seed: SecretBytes(copying: seed), publicKey: publicKey)
            #expect(try kept.decapsulate(sent.encapsulated).withUnsafeBytes { Data($0) } == sent.sharedSecret.withUnsafeBytes { Data($0) })
        }
    }

    @Test(arguments: [
        ("ML-DSA-65", "CryptoTests/Signatures/MLDSA/MLDSA65_KeyGen_KAT.json"), ("ML-DSA-87", "CryptoTests/Signatures/MLDSA/MLDSA87_KeyGen_KAT.json"),
    ])
    func mldsaKeysFromTheirSeedsHaveNISTsPublicKeys(name: String, file: String) throws {
        let vectors = try SwiftCryptoVectors.array(file)
        #expect(vectors.count == 25)
        let algorithm = try #require(PostQuantumAlgorithm(standardName: name))
        for vector in vectors {
            let seed = try SwiftCryptoVectors.bytes(vector["seed"]), publicKey = try SwiftCryptoVectors.bytes(vector["pk"])
            let exported =
                algorithm == .mldsa65
                ? try MLDSA65.PrivateKey(seedRepresentation: seed, publicKey: nil).publicKey.rawRepresentation
                : try MLDSA87.PrivateKey(seedRepresentation: seed, publicKey: nil).publicKey.rawRepresentation
            #expect(exported == publicKey)
            let kept = try PostQuantumPrivateKey(algorithm, seed: SecretBytes(copying: seed), publicKey: publicKey)
            let message = Data("known answer".utf8)
            let signature = try kept.signature(for: message, context: Data())
            let valid =
                algorithm == .mldsa65
                ? try MLDSA65.PublicKey(rawRepresentation: publicKey).isValidSignature(signature, for: message)
                : try MLDSA87.PublicKey(rawRepresentation: publicKey).isValidSignature(signature, for: message)
            #expect(valid)
        }
        // A seed that does not make the seal's public key is refused, never used.
        let other = try SwiftCryptoVectors.bytes(vectors[1]["pk"])
        #expect(throws: KeyCryptoError.self) {
            try PostQuantumPrivateKey(algorithm, seed: SecretBytes(copying: try SwiftCryptoVectors.bytes(vectors[0]["seed"])), publicKey: other)
        }
    }

    @Test(arguments: ["ML-DSA-65", "ML-DSA-87"]) func mldsaSignaturesVerifyAsWycheproofSays(name: String) throws {
        let file = name == "ML-DSA-65" ? "CryptoExtrasVectors/mldsa_65_verify_test.json" : "CryptoExtrasVectors/mldsa_87_verify_test.json"
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: SwiftCryptoVectors.url(file))) as? [String: Any])
        let groups = try #require(document["testGroups"] as? [[String: Any]])
        var checked = 0
        for group in groups {
            let publicKeyBytes = try SwiftCryptoVectors.bytes(group["publicKey"])
            for test in try #require(group["tests"] as? [[String: Any]]) {
                let message = try SwiftCryptoVectors.bytes(test["msg"]), signature = try SwiftCryptoVectors.bytes(test["sig"])
                let context = try test["ctx"].map { try SwiftCryptoVectors.bytes($0) } ?? Data()
                let expected = test["result"] as? String == "valid"
                let verdict: Bool
                if name == "ML-DSA-65" {
                    guard let key = try? MLDSA65.PublicKey(rawRepresentation: publicKeyBytes) else {
                        #expect(!expected, "test \(test["tcId"] ?? "")")
                        continue
                    }
                    verdict = key.isValidSignature(signature, for: message, context: context)
                } else {
                    guard let key = try? MLDSA87.PublicKey(rawRepresentation: publicKeyBytes) else {
                        #expect(!expected, "test \(test["tcId"] ?? "")")
                        continue
                    }
                    verdict = key.isValidSignature(signature, for: message, context: context)
                }
                #expect(verdict == expected, "test \(test["tcId"] ?? "")")
                checked += 1
            }
        }
        #expect(checked > 40)
    }

    @Test func xwingDecapsulatesTheIETFVectorsCiphertexts() throws {
        let vectors = try SwiftCryptoVectors.array("CryptoTests/KEM/test-vectors.json")
        #expect(vectors.count == 3)
        for vector in vectors {
            let seed = try SwiftCryptoVectors.bytes(vector["seed"])
            let key = try XWingMLKEM768X25519.PrivateKey(seedRepresentation: seed, publicKey: nil)
            #expect(key.publicKey.rawRepresentation == (try SwiftCryptoVectors.bytes(vector["pk"])))
            let secret = try key.decapsulate(try SwiftCryptoVectors.bytes(vector["ct"]))
            #expect(secret.withUnsafeBytes { Data($0) } == (try SwiftCryptoVectors.bytes(vector["ss"])))
        }
    }
}

/// The test vectors in swift-crypto's checkout, found from this test binary's build folder (`.build/debug/…` or any
/// other scratch path): `<scratch>/checkouts/swift-crypto/Tests/`.
enum SwiftCryptoVectors {
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    static func url(_ relative: String) throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = folder.appendingPathComponent("checkouts/swift-crypto/Tests").appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw Missing(description: "swift-crypto's test vector \(relative) is not in this build's checkouts")
    }

    static func array(_ relative: String) throws -> [[String: Any]] {
        guard let array = try JSONSerialization.jsonObject(with: Data(contentsOf: url(relative))) as? [[String: Any]] else {
            throw Missing(description: "\(relative) is not an array of vectors")
        }
        return array
    }

    static func bytes(_ value: Any?) throws -> Data {
        guard let text = value as? String, text.count % 2 == 0 else { throw Missing(description: "a vector field is not hex") }
        var bytes = Data(capacity: text.count / 2)
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { throw Missing(description: "a vector field is not hex") }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
