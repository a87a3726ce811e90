import Foundation
import KeyCrypto
import Testing

@testable import SSHAgent

/// The wire codec: RFC 4251 §5's types, and every length checked against what is left.
@Suite(.timeLimit(.minutes(10))) struct SSHWireTests {
    @Test func mpintDropsLeadingZerosAndKeepsTheSignByte() throws {
        var writer = SSHWireWriter()
        writer.mpint(Data([0x00, 0x00, 0x80, 0x01]))
        writer.mpint(Data([0x00]))
        writer.mpint(Data([0x7f]))
        #expect(writer.bytes == Data([0, 0, 0, 3, 0x00, 0x80, 0x01, 0, 0, 0, 0, 0, 0, 0, 1, 0x7f]))
        var reader = SSHWireReader(writer.bytes)
        #expect(try reader.positiveMPInt() == Data([0x80, 0x01]))
        #expect(try reader.positiveMPInt() == Data())
        #expect(try reader.positiveMPInt() == Data([0x7f]))
        #expect(reader.isAtEnd)
    }

    @Test func aStringLongerThanTheMessageIsAnErrorNotACrash() {
        var reader = SSHWireReader(Data([0xff, 0xff, 0xff, 0xff, 1, 2]))
        #expect(throws: SSHWireError.self) { try reader.string() }
        var short = SSHWireReader(Data([0, 0, 1]))
        #expect(throws: SSHWireError.self) { try short.uint32() }
    }

    @Test func aNegativeMPIntIsRefused() {
        var reader = SSHWireReader(Data([0, 0, 0, 1, 0x80]))
        #expect(throws: SSHWireError.self) { try reader.positiveMPInt() }
    }

    @Test func requestsParseAndTrailingBytesAreMalformed() throws {
        guard case .requestIdentities = try AgentRequest(payload: Data([11])) else { Issue.record("not REQUEST_IDENTITIES"); return }
        #expect(throws: SSHWireError.self) { try AgentRequest(payload: Data([11, 0])) }
        #expect(throws: SSHWireError.self) { try AgentRequest(payload: Data()) }
        guard case .unsupported(number: 42) = try AgentRequest(payload: Data([42, 1, 2])) else { Issue.record("not unsupported"); return }
        var sign = SSHWireWriter()
        sign.byte(13)
        sign.string(Data([1, 2]))
        sign.string(Data("data".utf8))
        sign.uint32(4)
        guard case .sign(let blob, let data, let flags) = try AgentRequest(payload: sign.bytes) else { Issue.record("not SIGN"); return }
        #expect(blob == Data([1, 2]) && data == Data("data".utf8) && flags == 4)
    }

    @Test func anEd25519KeyIsReadAndAMismatchedOneIsMalformed() throws {
        let key = try AsymmetricKey.generate(type: .ed25519, sizeInBits: 256)
        func add(seed: Data, point: Data, secretPoint: Data) -> Data {
            var add = SSHWireWriter()
            add.byte(17)
            add.text("ssh-ed25519")
            add.string(point)
            add.string(seed + secretPoint)
            add.text("comment")
            return add.bytes
        }
        let seed = key.externalRepresentation()
        let point = key.publicKeyBytes
        guard case .add(.supported(let read), let comment, let constraints) = try AgentRequest(payload: add(seed: seed, point: point, secretPoint: point))
        else { Issue.record("not a supported add"); return }
        #expect(read == key && comment == "comment" && constraints.isEmpty)
        #expect(SSHKeyType.name(of: read) == "ssh-ed25519")
        #expect(
            SSHKeyType.publicKeyBlob(of: read)
                == {
                    var blob = SSHWireWriter(); blob.text("ssh-ed25519"); blob.string(point); return blob.bytes
                }())
        // The public key twice, and it must be the seed's.
        let other = try AsymmetricKey.generate(type: .ed25519, sizeInBits: 256).publicKeyBytes
        #expect(throws: SSHWireError.self) { try AgentRequest(payload: add(seed: seed, point: other, secretPoint: other)) }
        #expect(throws: SSHWireError.self) { try AgentRequest(payload: add(seed: seed, point: point, secretPoint: other)) }
        #expect(throws: SSHWireError.self) { try AgentRequest(payload: add(seed: seed.prefix(31), point: point, secretPoint: point)) }
    }

    @Test func aDSAKeyIsReadAsUnsupported() throws {
        var add = SSHWireWriter()
        add.byte(17)
        add.text("ssh-dss")
        add.string(Data(count: 128))
        guard case .add(.unsupported(let type), _, _) = try AgentRequest(payload: add.bytes) else { Issue.record("not an unsupported add"); return }
        #expect(type == "ssh-dss")
    }

    @Test func ed25519SignaturesAreTheRawSixtyFourBytes() throws {
        let key = try AsymmetricKey.generate(type: .ed25519, sizeInBits: 256)
        let scheme = try #require(SSHSignature.scheme(for: key.publicKey, flags: 0))
        #expect(scheme.name == "ssh-ed25519" && scheme.algorithm == .edDSASignatureMessageCurve25519SHA512)
        let signature = try key.signature(for: Data("data".utf8), algorithm: scheme.algorithm)
        var reader = SSHWireReader(try SSHSignature.blob(scheme: scheme, signature: signature))
        #expect(try reader.text() == "ssh-ed25519")
        #expect(try reader.string() == signature && signature.count == 64)
        #expect(reader.isAtEnd)
    }

    @Test func tagsRoundTripAndUnknownOptionsAreNotTheAgents() {
        let tag = AgentKeyTag(expiresAt: 1_700_000_000, confirm: true)
        #expect(AgentKeyTag(tag.data) == tag)
        #expect(AgentKeyTag(Data("coffer.ssh-agent:".utf8)) == AgentKeyTag())
        #expect(AgentKeyTag(Data("coffer.ssh-agent:restrict".utf8)) == nil)
        #expect(AgentKeyTag(Data("other".utf8)) == nil)
    }

    @Test func ecdsaSignaturesBecomeTwoMPInts() throws {
        let scheme = SSHSignature.Scheme(name: "ecdsa-sha2-nistp256", algorithm: .ecdsaSignatureMessageRFC4754SHA256)
        let raw = Data([0x80] + [UInt8](repeating: 1, count: 31) + [0x00, 0x01] + [UInt8](repeating: 2, count: 30))
        var reader = SSHWireReader(try SSHSignature.blob(scheme: scheme, signature: raw))
        #expect(try reader.text() == "ecdsa-sha2-nistp256")
        var inner = SSHWireReader(try reader.string())
        #expect(try inner.positiveMPInt() == raw.prefix(32))
        #expect(try inner.positiveMPInt() == Data(raw.suffix(32).dropFirst()))
    }
}

/// Arbitrary bytes never crash the parser: each is a request or an ``SSHWireError``.
@Suite(.timeLimit(.minutes(10))) struct AgentRequestRobustnessTests {
    @Test func randomAndTruncatedPayloadsAreParsedOrRefused() {
        var generator = SystemRandomNumberGenerator()
        // Well-formed starts cut short at every length, then random payloads for each message number.
        var add = SSHWireWriter()
        add.byte(25)
        add.text("ecdsa-sha2-nistp256")
        add.text("nistp256")
        add.string(Data([4] + [UInt8](repeating: 1, count: 64)))
        add.mpint(Data(repeating: 2, count: 32))
        add.text("comment")
        add.byte(1)
        add.uint32(60)
        for length in 0...add.bytes.count {
            _ = try? AgentRequest(payload: add.bytes.prefix(length))
        }
        for _ in 0..<20_000 {
            let count = Int.random(in: 1...64, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            bytes[0] = [11, 13, 17, 18, 19, 22, 23, 25, 27][Int.random(in: 0..<9, using: &generator)]
            _ = try? AgentRequest(payload: Data(bytes))
        }
    }
}
