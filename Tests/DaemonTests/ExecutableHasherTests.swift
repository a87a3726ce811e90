import ProgramIdentity
import Crypto
import Daemon
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Hashing a caller's executable is bounded: regular files only, a size limit, abandoned when the peer
/// goes, and cached under a key a program of the user cannot restore (the status-change time).
@Suite("Bounded executable hashing", .timeLimit(.minutes(10)))
struct ExecutableHasherTests {
    private func scratchFile(_ bytes: [UInt8] = []) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hasher-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func sha256(_ bytes: [UInt8]) -> String { SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() }

    @Test func aSparseTwentyGigabyteFileIsRefusedAtOnce() throws {
        let path = try scratchFile()
        defer { unlink(path) }
        #expect(truncate(path, 20 << 30) == 0)
        let start = ContinuousClock.now
        #expect(throws: ExecutableHasher.Refusal.tooLarge(size: 20 << 30, limit: ExecutableHasher.defaultMaximumSize)) {
            try ExecutableHasher().sha256(ofFileAt: path)
        }
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    @Test func theLimitIsConfigurable() throws {
        let path = try scratchFile([UInt8](repeating: 7, count: 2 << 20))
        defer { unlink(path) }
        #expect(throws: ExecutableHasher.Refusal.tooLarge(size: 2 << 20, limit: 1 << 20)) {
            try ExecutableHasher(maximumSize: 1 << 20).sha256(ofFileAt: path)
        }
        #expect(try ExecutableHasher(maximumSize: 2 << 20).sha256(ofFileAt: path) == sha256([UInt8](repeating: 7, count: 2 << 20)))
    }

    @Test func onlyRegularFilesAreHashed() {
        #expect(throws: ExecutableHasher.Refusal.notRegularFile) { try ExecutableHasher().sha256(ofFileAt: "/dev/zero") }
    }

    @Test func hashingStopsBetweenChunksOnceThePeerHasGone() throws {
        let path = try scratchFile([UInt8](repeating: 1, count: 4 << 20))
        defer { unlink(path) }
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let file = try FileIdentity.of(descriptor: descriptor)
        var checks = 0
        #expect(throws: ExecutableHasher.Refusal.abandoned) {
            try ExecutableHasher().sha256(
                of: descriptor, file: file,
                isAbandoned: {
                    checks += 1
                    return checks == 3
                })
        }
        #expect(checks == 3, "checked before each 64 KiB chunk, stopped at the third")
    }

    @Test func aRewriteWithTheSameSizeAndModificationTimeIsHashedAgain() throws {
        let original = [UInt8](repeating: 0xAA, count: 100_000)
        var changed = original
        changed[50_000] = 0xBB
        let path = try scratchFile(original)
        defer { unlink(path) }
        let hasher = ExecutableHasher()
        #expect(try hasher.sha256(ofFileAt: path) == sha256(original))
        let before = try #require(FileIdentity.at(path: path))
        // Rewrite in place, same size, then set the modification time back: only the status-change time moves.
        let descriptor = open(path, O_WRONLY)
        _ = changed.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        var times = [
            timespec(tv_sec: Int(before.modified.seconds), tv_nsec: Int(before.modified.nanoseconds)),
            timespec(tv_sec: Int(before.modified.seconds), tv_nsec: Int(before.modified.nanoseconds)),
        ]
        #expect(futimens(descriptor, &times) == 0)
        close(descriptor)
        let after = try #require(FileIdentity.at(path: path))
        #expect(after.modified == before.modified && after.size == before.size && after.inode == before.inode)
        #expect(try hasher.sha256(ofFileAt: path) == sha256(changed))
    }
}
