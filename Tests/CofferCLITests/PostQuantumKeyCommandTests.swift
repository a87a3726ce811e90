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
}
