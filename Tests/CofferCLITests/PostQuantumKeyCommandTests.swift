import Crypto
import Foundation
import Testing
import TestProcesses

/// `coffer create-key -t ml-kem-768|ml-kem-1024|ml-dsa-65|ml-dsa-87`, on both transports: the key is made inside the
/// keychain, stored under its tag (`find-key` lists it as a Secure Enclave key of Apple's private types 110 and 111),
/// and mistakes are named.
@Suite("coffer create-key, post-quantum", .timeLimit(.minutes(10)))
struct PostQuantumKeyCommandTests {
    @Test(arguments: CLITransport.allCases) func postQuantumKeysAreMadeInsideTheKeychainUnderTheirTag(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        let kinds = [("ml-kem-768", 1184, 110, 768), ("ml-kem-1024", 1568, 110, 1024), ("ml-dsa-65", 1952, 111, 65), ("ml-dsa-87", 2592, 111, 87)]
        for (type, publicLength, typeCode, size) in kinds {
            let created = try fixture.cli.run(["create-key", "-t", type, "--tag", "pq-\(type)", "-l", "Post-quantum \(type)"])
            #expect(created.status == 0, "\(created.standardError)")
            let lines = created.standardOutput.split(separator: "\n")
            #expect(lines.first == "created \(type) key, tag pq-\(type), protection cku")
            let publicKey = try #require(lines.last.flatMap { Data(base64Encoded: String($0.dropFirst("public key: ".count))) })
            #expect(publicKey.count == publicLength)
            let found = try fixture.cli.run(["find-key", "--tag", "pq-\(type)"])
            #expect(found.status == 0, "\(found.standardError)")
            #expect(found.standardOutput.contains("\"tkid\"<blob>=\"com.apple.setoken\""))
            #expect(found.standardOutput.contains("\"type\"<sint32>=\(typeCode)\n"), "\(found.standardOutput)")
            #expect(found.standardOutput.contains("\"bsiz\"<sint32>=\(size)\n"))
        }
        let untagged = try fixture.cli.run(["create-key", "-t", "ml-dsa-65"])
        #expect(untagged.status != 0 && untagged.standardError.contains("-t ml-dsa-65 needs --tag"))
        let sized = try fixture.cli.run(["create-key", "-t", "ml-kem-768", "--tag", "x", "-s", "256"])
        #expect(sized.status != 0 && sized.standardError.contains("names its size"))
        let ssh = try fixture.cli.run(["create-key", "-t", "ml-kem-768", "--ssh"])
        #expect(ssh.status != 0)
    }

    @Test(arguments: CLITransport.allCases) func anMLDSAKeySignsVerifiesExportsAndIsDeleted(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        let created = try fixture.cli.run(["create-key", "-t", "ml-dsa-65", "--tag", "release"])
        #expect(created.status == 0, "\(created.standardError)")
        let publicKey = try #require(
            created.standardOutput.split(separator: "\n").last.flatMap { Data(base64Encoded: String($0.dropFirst("public key: ".count))) })
        let message = "release v5 tarball\n"

        let signed = try fixture.cli.run(["sign", "--tag", "release"], input: message)
        #expect(signed.status == 0, "\(signed.standardError)")
        let signature = signed.standardOutputBytes
        #expect(signature.count == 3309)
        #expect(try MLDSA65.PublicKey(rawRepresentation: publicKey).isValidSignature(signature, for: Data(message.utf8)))
        let file = fixture.scratch.appendingPathComponent("release.sig")
        try signature.write(to: file)
        let verified = try fixture.cli.run(["verify", "--tag", "release", "--signature", file.path], input: message)
        #expect(verified.status == 0 && verified.standardOutput == "signature verified\n", "\(verified.standardError)")
        let other = try fixture.cli.run(["verify", "--tag", "release", "--signature", file.path], input: "another tarball\n")
        #expect(other.status == 1 && other.standardError.contains("does not match"))
        let algorithm = try fixture.cli.run(["sign", "--tag", "release", "-a", "ecdsaSignatureMessageX962SHA256"], input: message)
        #expect(algorithm.status != 0 && algorithm.standardError.contains("signs one way only"))

        // The public key as X.509 SubjectPublicKeyInfo: id-ml-dsa-65 (2.16.840.1.101.3.4.3.18), no parameters.
        let der = try fixture.cli.run(["export-public-key", "--tag", "release", "-f", "der"])
        #expect(der.status == 0, "\(der.standardError)")
        let info = der.standardOutputBytes
        #expect(info.prefix(4) == Data([0x30, 0x82, 0x07, 0xB2]))
        #expect(info.dropFirst(4).prefix(13) == Data([0x30, 0x0B, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x12]))
        #expect(info.dropFirst(17).prefix(5) == Data([0x03, 0x82, 0x07, 0xA1, 0x00]))
        #expect(info.suffix(publicKey.count) == publicKey && info.count == 22 + publicKey.count)
        let pem = try fixture.cli.run(["export-public-key", "--tag", "release"])
        #expect(pem.standardOutput.hasPrefix("-----BEGIN PUBLIC KEY-----\n") && pem.standardOutput.hasSuffix("-----END PUBLIC KEY-----\n"))
        let body = pem.standardOutput.split(separator: "\n").dropFirst().dropLast().joined()
        #expect(Data(base64Encoded: body) == info)
        let ssh = try fixture.cli.run(["export-public-key", "--tag", "release", "-f", "openssh"])
        #expect(ssh.status != 0 && ssh.standardError.contains("OpenSSH has no ml-dsa-65 keys"))

        // An ML-KEM key does not sign; its public key exports with id-alg-ml-kem-768.
        #expect(try fixture.cli.run(["create-key", "-t", "ml-kem-768", "--tag", "kem"]).status == 0)
        let kemSign = try fixture.cli.run(["sign", "--tag", "kem"], input: message)
        #expect(kemSign.status != 0 && kemSign.standardError.contains("does not sign: it decapsulates"))
        let kemInfo = try fixture.cli.run(["export-public-key", "--tag", "kem", "-f", "der"]).standardOutputBytes
        #expect(kemInfo.dropFirst(4).prefix(13) == Data([0x30, 0x0B, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x04, 0x02]))

        let deleted = try fixture.cli.run(["delete-key", "--tag", "release"])
        #expect(deleted.status == 0, "\(deleted.standardError)")
        let gone = try fixture.cli.run(["sign", "--tag", "release"], input: message)
        #expect(gone.status != 0)
        #expect(try fixture.cli.run(["find-key", "--tag", "release"]).status != 0)
    }
}
