import CofferRuntime
import Foundation
import KeychainModel
import KeychainOperations
import KeychainService
import Query
import Synchronization
import Testing

@testable import Daemon

/// The bookkeeping behind the per-user limits, alone.
@Suite("Per-user limits", .timeLimit(.minutes(10)))
struct ResourceLimitsTests {
    @Test func connectionsAreCappedPerUserAndInAll() {
        let counter = ConnectionCounter(perUser: 2, total: 3)
        #expect(counter.admit(1) == nil)
        #expect(counter.admit(1) == nil)
        #expect(counter.admit(1) == .userCap(2))
        #expect(counter.admit(2) == nil)
        #expect(counter.admit(3) == .globalCap(3))
        counter.release(1)
        #expect(counter.held(by: 1) == 1)
        #expect(counter.admit(3) == nil)
        #expect(counter.admit(1) == .globalCap(3))
    }

    @Test func bytesInFlightAreCappedPerUserAndInAll() {
        let budget = ByteBudget(perUser: 100, total: 150)
        #expect(budget.reserve(60, for: 1))
        #expect(!budget.reserve(41, for: 1))
        #expect(budget.reserve(40, for: 1))
        #expect(budget.reserve(50, for: 2))
        #expect(!budget.reserve(1, for: 3))
        budget.release(60, for: 1)
        #expect(budget.used(by: 1) == 40)
        #expect(budget.reserve(10, for: 3))
        #expect(budget.usedInAll == 100)
        budget.forceReserve(500, for: 2)
        #expect(budget.used(by: 2) == 550)
    }

    @Test func theDefaultsAreTheDocumentedOnes() {
        let limits = ResourceLimits()
        #expect(limits.connectionsPerUser == 64)
        #expect(limits.maximumConnections == nil)
        #expect(limits.bytesInFlightPerUser == 96 << 20)
        #expect(limits.bytesInFlightTotal == 512 << 20)
        #expect(limits.storedBytesPerUser == 256 << 20)
        #expect(limits.freeSpaceReserve == 64 << 20)
        #expect(limits.frameTimeout == .seconds(10))
        // One largest answer and one largest request fit in a user's budget together.
        #expect(limits.bytesInFlightPerUser >= (64 << 20) + (17 << 20) + 20)
        #expect(FileDescriptorLimit.connectionCap(forDescriptorLimit: 1_024) == 512)
        #expect(FileDescriptorLimit.connectionCap(forDescriptorLimit: 65_536) == 4_096)
    }

    @Test func theSoftDescriptorLimitIsRaisedToTheHardOne() {
        let inForce = FileDescriptorLimit.raiseSoftToHard()
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        #expect(inForce == Int(limit.rlim_cur))
        #expect(limit.rlim_cur == limit.rlim_max)
    }

    /// One user's queue of slow jobs holds at most `perUser` threads: another user's job starts while
    /// most of them still wait.
    @Test(.timeLimit(.minutes(1))) func oneUsersJobsDoNotHoldEveryThread() async throws {
        let queue = PerUserWorkQueue(workers: WorkerThreads(maximum: 8), perUser: 2)
        let release = DispatchSemaphore(value: 0)
        let running = Atomic<Int>(0)
        let most = Atomic<Int>(0)
        let finished = DispatchGroup()
        for _ in 0..<20 {
            finished.enter()
            queue.submit(for: 1) {
                let now = running.add(1, ordering: .relaxed).newValue
                _ = most.max(now, ordering: .relaxed)
                release.wait()
                running.subtract(1, ordering: .relaxed)
                finished.leave()
            }
        }
        let other = DispatchSemaphore(value: 0)
        queue.submit(for: 2) { other.signal() }
        #expect(other.wait(timeout: .now() + 20) == .success, "another user's job ran while the first user's waited")
        #expect(most.load(ordering: .relaxed) <= 2)
        for _ in 0..<20 { release.signal() }
        #expect(finished.wait(timeout: .now() + 20) == .success)
        #expect(most.load(ordering: .relaxed) == 2)
    }

    @Test func onlyRequestsThatMayGrowTheKeychainAreChecked() {
        let query: QueryDictionary = ["class": "genp"]
        let passcode = SecretBytes(copying: Array("1234".utf8))
        #expect(StorageQuota.grows(.add(query)))
        #expect(StorageQuota.grows(.update(query: query, attributesToUpdate: query)))
        #expect(!StorageQuota.grows(.delete(query)))
        #expect(!StorageQuota.grows(.copyMatching(query)))
        #expect(!StorageQuota.grows(.unlock(passcode: passcode)))
        #expect(!StorageQuota.grows(.changePasscode(old: passcode, new: passcode)))
    }

    @Test func aFolderCountsTheBlocksItsFilesOccupy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-quota-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(repeating: 1, count: 100_000).write(to: folder.appendingPathComponent("dense"))
        // A sparse file of 1 GiB occupies (almost) nothing.
        let sparse = open(folder.appendingPathComponent("sparse").path, O_CREAT | O_WRONLY, 0o600)
        ftruncate(sparse, 1 << 30)
        close(sparse)
        let occupied = StorageQuota.occupiedBytes(of: folder.path)
        #expect(occupied >= 100_000 && occupied < 200_000)
        #expect(StorageQuota.occupiedBytes(of: folder.path, excluding: ["dense"]) < 10_000)
        #expect(StorageQuota.freeBytes(of: folder.path).map { $0 > 0 } == true)
    }
}
