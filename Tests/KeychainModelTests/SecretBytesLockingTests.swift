import Foundation
import Testing

@testable import KeychainModel

@Suite("SecretBytes are locked in memory", .timeLimit(.minutes(10)))
struct SecretBytesLockingTests {
    /// The `Locked:` size, in kB, of the mapping of `/proc/self/smaps` that holds `address`: `mlock` splits
    /// a mapping at the locked pages and the kernel reports them there, whatever other threads do.
    private static func lockedKilobytes(at address: UInt) throws -> Int? {
        // Read to its end: /proc files report a size of 0, so whole-file readers may see nothing.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let smaps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inMapping = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            } else if inMapping, fields.first == "Locked:", fields.count >= 2 {
                return Int(fields[1])
            }
        }
        return nil
    }

    @Test func aSecretsPagesAreLockedWhileItLives() throws {
        let secret = SecretBytes(copying: Array("correct horse battery staple".utf8))
        // As root (CAP_IPC_LOCK) or within RLIMIT_MEMLOCK, locking succeeds.
        if memoryLockingAllowed() {
            #expect(secret.isLockedInMemory)
        }
        if secret.isLockedInMemory {
            let locked = try #require(try Self.lockedKilobytes(at: secret.address))
            #expect(locked >= 4)
        }
        #expect(secret.withUnsafeBytes { Array($0) } == Array("correct horse battery staple".utf8))
    }

    @Test func capacityInitializerLocksToo() throws {
        let secret = SecretBytes(capacity: 10_000) { buffer in
            for index in 0..<buffer.count { buffer[index] = UInt8(truncatingIfNeeded: index) }
            return buffer.count
        }
        #expect(secret.count == 10_000)
        if secret.isLockedInMemory {
            #expect(try #require(try Self.lockedKilobytes(at: secret.address)) >= 12)
        }
    }
}

/// Whether this process may lock at least 1 MiB: root (CAP_IPC_LOCK), or a `Max locked memory` soft limit
/// of at least 1 MiB in `/proc/self/limits`.
func memoryLockingAllowed() -> Bool {
    if getuid() == 0 { return true }
    guard let handle = FileHandle(forReadingAtPath: "/proc/self/limits") else { return false }
    defer { try? handle.close() }
    let limits = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    guard let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max locked memory") })
    else { return false }
    let soft = line.dropFirst("Max locked memory".count).split(separator: " ").first.map(String.init) ?? ""
    return soft == "unlimited" || (Int(soft) ?? 0) >= 1 << 20
}
