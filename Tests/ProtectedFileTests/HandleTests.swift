import Coffer
import CofferTestSupport
import Foundation
import ProtectedFileFormat
import Testing

// coffer-lint:disable-file file-protection-on-linux: Foundation's options here go to ProtectedFile, which honours them.

/// Streaming reads and writes through a handle, checked against the same operations on plain bytes.
@Suite("Protected file handles", .timeLimit(.minutes(10)))
struct HandleTests {
    @Test(arguments: Transport.allCases)
    func randomWritesSeeksAndTruncationsMatchPlainBytes(transport: Transport) throws {
        let fixture = try FileKeychain(transport, passcode: false)
        let url = fixture.file("random")
        var model = Data()
        var generator = SeededGenerator(seed: 42)
        let handle = try ProtectedFileHandle(forWritingTo: url, protection: .completeUnlessOpen, keychain: fixture.keychain)
        var position = 0
        for step in 0..<120 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                let count = [1, 100, 4_096, 65_535, 65_536, 65_537, 200_000].randomElement(using: &generator)!
                let bytes = pattern(count, seed: UInt8(step % 250))
                try handle.write(contentsOf: bytes)
                if position > model.count { model.append(Data(count: position - model.count)) }
                model.replaceSubrange(position..<min(model.count, position + count), with: bytes)
                position += count
            case 5..<7:
                position = Int.random(in: 0...(model.count + 70_000), using: &generator)
                try handle.seek(toOffset: UInt64(position))
            case 7:
                let count = Int.random(in: 0...150_000, using: &generator)
                let data = try handle.read(upToCount: count)
                let expected = position < model.count ? model[position..<min(model.count, position + count)] : Data()
                #expect((data ?? Data()) == expected, "step \(step)")
                position += expected.count
            case 8:
                let length = Int.random(in: 0...(model.count + 70_000), using: &generator)
                try handle.truncate(atOffset: UInt64(length))
                if length < model.count { model = model.prefix(length) } else { model.append(Data(count: length - model.count)) }
                position = length
            default:
                try handle.synchronize()
                #expect(try ProtectedFile.read(contentsOf: url, keychain: fixture.keychain) == model, "step \(step)")
            }
            #expect(try handle.length == UInt64(model.count), "step \(step)")
        }
        try handle.close()
        #expect(try ProtectedFile.read(contentsOf: url, keychain: fixture.keychain) == model)
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int
        #expect(size == ChunkLayout(contentStart: 130, contentLength: model.count).fileSize)
    }

    @Test(arguments: Transport.allCases)
    func changingTheClassWritesANewKey(transport: Transport) throws {
        let fixture = try FileKeychain(transport)
        let url = fixture.file("moved")
        try ProtectedFile.write(pattern(300_000), to: url, protection: .none, keychain: fixture.keychain)
        let before = try Data(contentsOf: url)
        try ProtectedFile.setProtection(.complete, of: url, keychain: fixture.keychain)
        #expect(try ProtectedFile.protection(of: url).rawValue == FileProtectionType.complete.rawValue)
        let after = try Data(contentsOf: url)
        #expect(before.dropFirst(8).prefix(18) != after.dropFirst(8).prefix(18))  // a new identifier and wrapped key
        #expect(try ProtectedFile.read(contentsOf: url, keychain: fixture.keychain) == pattern(300_000))
        try fixture.lock()
        #expect(throws: ProtectedFileError.self) { try ProtectedFile.read(contentsOf: url, keychain: fixture.keychain) }
        #expect(throws: ProtectedFileError.self) { try ProtectedFile.setProtection(.none, of: url, keychain: fixture.keychain) }
        #expect(try ProtectedFile.protection(of: url).rawValue == FileProtectionType.complete.rawValue)
    }

    @Test(arguments: Transport.allCases)
    func foundationsWritingOptionsNameTheClass(transport: Transport) async throws {
        let fixture = try FileKeychain(transport, passcode: false)
        let cases: [(Data.WritingOptions, FileProtectionType)] = [
            ([.atomic, .completeFileProtection], .complete),
            (.completeFileProtectionUnlessOpen, .completeUnlessOpen),
            (.completeFileProtectionUntilFirstUserAuthentication, .completeUntilFirstUserAuthentication),
            (.noFileProtection, .none),
            ([], .completeUntilFirstUserAuthentication),
        ]
        for (index, (options, protection)) in cases.enumerated() {
            let url = fixture.file("options-\(index)")
            try ProtectedFile.write(Data("x".utf8), to: url, options: options, keychain: fixture.keychain)
            #expect(try ProtectedFile.protection(of: url).rawValue == protection.rawValue)
            #expect(try await ProtectedFile.read(contentsOf: url, keychain: fixture.keychain) == Data("x".utf8))
            let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as! Int
            #expect(mode == 0o600)
        }
        let unsupported = try #require(throws: ProtectedFileError.self) {
            try ProtectedFile.write(
                Data(), to: fixture.file("inactive"), protection: FileProtectionType(rawValue: "NSFileProtectionCompleteWhenUserInactive"),
                keychain: fixture.keychain)
        }
        #expect(unsupported.code == .featureUnsupported)
        let plain = fixture.file("plain")
        try Data("not protected".utf8).write(to: plain)
        let notProtected = try #require(throws: ProtectedFileError.self) { try ProtectedFile.protection(of: plain) }
        #expect(notProtected.code == .fileReadCorruptFile)
        let missing = try #require(throws: ProtectedFileError.self) { try ProtectedFile.read(contentsOf: fixture.file("missing"), keychain: fixture.keychain) }
        #expect(missing.code == .fileReadNoSuchFile)
        try await ProtectedFile.write(pattern(1_000), to: fixture.file("async"), protection: .complete, keychain: fixture.keychain)
        #expect(try await ProtectedFile.read(contentsOf: fixture.file("async"), keychain: fixture.keychain) == pattern(1_000))
    }
}

/// A small deterministic generator (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
