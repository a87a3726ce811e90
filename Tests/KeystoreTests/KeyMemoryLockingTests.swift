import Crypto
import Foundation
import KeychainModel
import Testing

@testable import Keystore

@Suite("The keystore's keys are locked in memory", .timeLimit(.minutes(10)))
struct KeyMemoryLockingTests {
    @Test func deviceIndexAndClassKeysAreLockedAcrossLockAndUnlock() throws {
        // Root has CAP_IPC_LOCK; an ordinary user within RLIMIT_MEMLOCK is checked the same way. Where the
        // system refuses, locking is skipped, never an error: then only the keys' use is checked.
        let lockingAllowed = memoryLockingAllowed()
        let (keystore, _) = try keystoreWithPasscode()
        if lockingAllowed { #expect(keystore.keyMaterialIsLockedInMemory) }
        try keystore.unlock(passcode: secret("1234"))
        if lockingAllowed { #expect(keystore.keyMaterialIsLockedInMemory) }
        // The keys still work through their locked storage.
        let itemKey = SymmetricKey(size: .bits256)
        let wrapped = try keystore.wrapItemKey(itemKey, protection: .whenUnlocked)
        #expect(try keystore.unwrapItemKey(wrapped, protection: .whenUnlocked) == itemKey)
        keystore.lock()
        if lockingAllowed { #expect(keystore.keyMaterialIsLockedInMemory) }
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
