import Coffer
import CofferTestSupport
import Foundation
import ProtectedFileFormat
import Testing

/// A protected file that was changed is an error, never wrong bytes: every single-byte flip, truncation,
/// extension and chunk reordering.
@Suite("Protected file integrity", .timeLimit(.minutes(10)))
struct IntegrityTests {
    @Test(arguments: Transport.allCases)
    func everySingleByteFlipIsDetected(transport: Transport) throws {
        let fixture = try FileKeychain(transport, passcode: false)
        for protection in [FileProtectionType.none, .completeUnlessOpen] {
            let url = fixture.file("small-\(protection.rawValue)")
            try ProtectedFile.write(Data("a small secret".utf8), to: url, protection: protection, keychain: fixture.keychain)
            let original = try Data(contentsOf: url)
            #expect(original.count == (protection == .none ? 98 : 130) + 14 + 28)
            var undetected: [Int] = []
            for index in original.indices {
                var changed = original
                changed[index] ^= 0xFF
                try changed.write(to: url)
                do throws(ProtectedFileError) {
                    _ = try ProtectedFile.read(contentsOf: url, keychain: fixture.keychain)
                    undetected.append(index)
                } catch {
                    #expect(error.code == .fileReadCorruptFile, "byte \(index): \(error)")
                }
            }
            #expect(undetected == [])
            try original.write(to: url)
            #expect(try ProtectedFile.read(contentsOf: url, keychain: fixture.keychain) == Data("a small secret".utf8))
        }
    }

    @Test(arguments: Transport.allCases)
    func truncationExtensionAndReorderingAreDetected(transport: Transport) throws {
        let fixture = try FileKeychain(transport, passcode: false)
        let url = fixture.file("chunks")
        let content = pattern(3 * ChunkLayout.chunkSize + 1_000)
        try ProtectedFile.write(content, to: url, protection: .completeUntilFirstUserAuthentication, keychain: fixture.keychain)
        let original = try Data(contentsOf: url)
        let start = 98
        let stored = ChunkLayout.storedChunkSize
        func chunk(_ index: Int) -> Data { original[(start + index * stored)..<min(original.count, start + (index + 1) * stored)] }
        let head = original.prefix(start)
        let variants: [(String, Data)] = [
            ("the last chunk dropped", original.prefix(start + 3 * stored)),
            ("cut inside the last chunk", original.prefix(original.count - 1)),
            ("cut inside a chunk", original.prefix(start + stored + 100)),
            ("the header alone", head),
            ("a chunk appended again", original + chunk(1)),
            ("bytes appended", original + Data(repeating: 0, count: 100)),
            ("chunks 0 and 1 swapped", head + chunk(1) + chunk(0) + chunk(2) + chunk(3)),
            ("chunk 1 duplicated over chunk 2", head + chunk(0) + chunk(1) + chunk(1) + chunk(3)),
            ("the last chunk moved first", head + chunk(3) + chunk(1) + chunk(2) + chunk(0)),
        ]
        for (name, bytes) in variants {
            try bytes.write(to: url)
            let error = #expect(throws: ProtectedFileError.self, "\(name)") { try ProtectedFile.read(contentsOf: url, keychain: fixture.keychain) }
            #expect(error?.code == .fileReadCorruptFile, "\(name)")
        }
        // Random access into a reordered file: the moved chunk fails, the others read.
        try (head + chunk(1) + chunk(0) + chunk(2) + chunk(3)).write(to: url)
        let handle = try ProtectedFileHandle(forReadingFrom: url, keychain: fixture.keychain)
        #expect(throws: ProtectedFileError.self) { try handle.read(fromOffset: 10, upToCount: 10) }
        #expect(
            try handle.read(fromOffset: UInt64(2 * ChunkLayout.chunkSize + 5), upToCount: 10)
                == content[(2 * ChunkLayout.chunkSize + 5)..<(2 * ChunkLayout.chunkSize + 15)])
        try handle.close()
    }
}
