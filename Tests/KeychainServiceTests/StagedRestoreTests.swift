import Foundation
import KeychainModel
import KeychainOperations
@testable import KeychainService
import Synchronization
import Testing

/// Restores staged in parts (`stageRestore`, then `restoreBackup` naming the staging): the parts are the
/// caller's own, bounded, and dropped when abandoned.
@Suite("Staged restores in the keychain service", .timeLimit(.minutes(10)))
struct StagedRestoreTests {
    private static let alice = CallerContext(accessGroups: .list(["alice"]))
    private static let bob = CallerContext(accessGroups: .list(["bob"]))

    /// A clock the test moves.
    private final class TestClock: Sendable {
        private let offset = Mutex(Duration.zero)
        private let start = ContinuousClock.now
        var now: ContinuousClock.Instant { start + offset.withLock { $0 } }
        func advance(_ duration: Duration) { offset.withLock { $0 += duration } }
    }

    /// A service over a fresh keychain (no passcode: unlocked), its staging bounded by `limits`.
    private static func service(
        _ limits: RestoreStagingPool.Limits = .init(), pool: RestoreStagingPool? = nil, clock: TestClock = TestClock()
    ) -> (KeychainService, URL) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-staged-\(UUID().uuidString)")
        let service = KeychainService(
            folder: KeychainFolder(url: url), restoreStaging: pool ?? RestoreStagingPool(limits: limits), now: { clock.now })
        return (service, url)
    }

    /// A record stream of `count` generic-password records whose attributes are `attributeBytes` of filler: its
    /// structure holds (what staging checks), its attributes would not (what the restore checks).
    private static func stream(records count: Int, attributeBytes: Int = 16) -> SecretBytes {
        var bytes = Array("CFBR".utf8) + [1]
        bytes += withUnsafeBytes(of: UInt32(count).bigEndian) { Array($0) }
        for _ in 0..<count {
            bytes += [4] + Array("genp".utf8) + [2] + Array("ak".utf8)
            bytes += withUnsafeBytes(of: UInt32(attributeBytes).bigEndian) { Array($0) }
            bytes += [UInt8](repeating: 0x5A, count: attributeBytes) + [0]
        }
        return SecretBytes(copying: bytes)
    }

    private static let empty = stream(records: 0)

    private static func stage(
        _ service: KeychainService, _ staging: RestoreStagingID, _ records: SecretBytes, index: Int = 0, as caller: CallerContext = alice
    ) -> Response {
        service.handle(.stageRestore(RestorePart(staging: staging, index: index, records: records)), caller: caller)
    }

    private static func commit(_ service: KeychainService, _ staging: RestoreStagingID, as caller: CallerContext = alice) -> Response {
        service.handle(.restoreBackup(BackupRestore(staging: staging, policy: .keep)), caller: caller)
    }

    private static func isNotStaged(_ response: Response) -> Bool {
        guard case .failure(.param, let reason) = response else { return false }
        return reason.hasPrefix("no restore is staged under")
    }

    @Test func onlyTheCallerThatStagedARestoreCommitsIt() throws {
        let (service, url) = Self.service()
        defer { try? FileManager.default.removeItem(at: url) }
        let staging = RestoreStagingID.random()
        #expect(Self.stage(service, staging, Self.empty) == .status(.success))
        // Bob names Alice's staging: he reaches nothing, and Alice's parts stay hers.
        #expect(Self.isNotStaged(Self.commit(service, staging, as: Self.bob)))
        #expect(Self.stage(service, staging, Self.empty, as: Self.bob) == .status(.success))
        #expect(Self.commit(service, staging) == .restoreReport(RestoreReport()))
        #expect(Self.commit(service, staging, as: Self.bob) == .restoreReport(RestoreReport()))
        // A staging is written once.
        #expect(Self.isNotStaged(Self.commit(service, staging)))
        #expect(service.stagedRestoreBytes == 0)
    }

    @Test func aRestoreReadsEveryStagedPartInOrder() throws {
        let (service, url) = Self.service()
        defer { try? FileManager.default.removeItem(at: url) }
        let staging = RestoreStagingID.random()
        #expect(Self.stage(service, staging, Self.empty) == .status(.success))
        #expect(Self.stage(service, staging, Self.stream(records: 2), index: 1) == .status(.success))
        // The staged records are decoded and checked as one restore: these fail the attribute check, so nothing is written.
        guard case .failure(let status, _) = Self.commit(service, staging) else {
            Issue.record("the filler records were restored")
            return
        }
        #expect(status != .success)
        #expect(
            service.handle(.copyMatching(["class": "genp", "m_Limit": "m_LimitAll"]), caller: Self.alice)
                == .failure(.itemNotFound, reason: "C1: no item matches the query among the calling program's access groups"))
    }

    @Test func aDamagedPartIsRefusedAndDropsItsStaging() throws {
        let (service, url) = Self.service()
        defer { try? FileManager.default.removeItem(at: url) }
        let staging = RestoreStagingID.random()
        #expect(Self.stage(service, staging, Self.stream(records: 1)) == .status(.success))
        #expect(
            Self.stage(service, staging, SecretBytes(copying: Array("junk".utf8)), index: 1)
                == .failure(.decode, reason: "the backup file is damaged or was modified (the item list has no valid header)"))
        #expect(service.stagedRestoreBytes == 0)
        #expect(Self.isNotStaged(Self.commit(service, staging)))
    }

    @Test func stagingPastTheCallersLimitIsRefusedAndNothingIsWritten() throws {
        let (service, url) = Self.service(.init(bytesPerCaller: 1 << 20, bytesInAll: 8 << 20))
        defer { try? FileManager.default.removeItem(at: url) }
        let staging = RestoreStagingID.random()
        let part = Self.stream(records: 1, attributeBytes: 600 << 10)
        #expect(Self.stage(service, staging, part) == .status(.success))
        guard case .failure(.allocate, let reason) = Self.stage(service, staging, part, index: 1) else {
            Issue.record("a second 600 KiB part was staged within 1 MiB")
            return
        }
        #expect(reason.contains("1 MiB one caller may stage"))
        #expect(service.stagedRestoreBytes == 0)
        #expect(Self.isNotStaged(Self.commit(service, staging)))
        // Nothing was written: the keychain's folder was never even made.
        let found = service.handle(.copyMatching(["class": "genp", "m_Limit": "m_LimitAll"]), caller: Self.alice)
        guard case .failure(.itemNotFound, let why) = found else {
            Issue.record("expected errSecItemNotFound, got \(found)")
            return
        }
        #expect(why.hasPrefix("there is no keychain at"))
    }

    @Test func theTotalBoundsEveryCallerAndEveryServiceOfAPool() throws {
        let pool = RestoreStagingPool(limits: .init(bytesPerCaller: 1 << 20, bytesInAll: 1 << 20))
        let (first, firstURL) = Self.service(pool: pool)
        let (second, secondURL) = Self.service(pool: pool)
        defer {
            try? FileManager.default.removeItem(at: firstURL)
            try? FileManager.default.removeItem(at: secondURL)
        }
        let part = Self.stream(records: 1, attributeBytes: 600 << 10)
        let staging = RestoreStagingID.random()
        #expect(Self.stage(first, staging, part) == .status(.success))
        guard case .failure(.allocate, let reason) = Self.stage(second, staging, part, as: Self.bob) else {
            Issue.record("the pool's total was passed")
            return
        }
        #expect(reason.contains("fill the 1 MiB all callers may stage"))
        // Alice's staging is untouched; once written, the pool has room again.
        #expect(first.stagedRestoreBytes > 600 << 10)
        #expect(Self.commit(first, staging) != .status(.success))
        #expect(pool.usedBytes == 0)
        #expect(Self.stage(second, staging, part, as: Self.bob) == .status(.success))
    }

    /// One user's programs and connections together hold at most their user's share, so that another user's restore
    /// still finds room: two callers of one keychain used to hold the whole pool between them.
    @Test func oneUsersCallersTogetherCannotTakeAnotherUsersRoom() throws {
        let pool = RestoreStagingPool(limits: .init(bytesPerCaller: 1 << 20, bytesPerUser: 1 << 20, bytesInAll: 2 << 20))
        let (first, firstURL) = Self.service(pool: pool)
        let (second, secondURL) = Self.service(pool: pool)
        defer {
            try? FileManager.default.removeItem(at: firstURL)
            try? FileManager.default.removeItem(at: secondURL)
        }
        let aliceOtherProgram = CallerContext(accessGroups: .list(["alice-other"]))
        let part = Self.stream(records: 1, attributeBytes: 600 << 10)
        #expect(Self.stage(first, RestoreStagingID(1), part) == .status(.success))
        guard case .failure(.allocate, let reason) = Self.stage(first, RestoreStagingID(2), part, as: aliceOtherProgram) else {
            Issue.record("a second caller of the same user passed the user's share")
            return
        }
        #expect(reason.contains("1 MiB one user may stage"))
        // Bob, another user of the same pool, stages and restores while Alice's first staging is held.
        let bobs = RestoreStagingID(3)
        #expect(Self.stage(second, bobs, part, as: Self.bob) == .status(.success))
        #expect(Self.stage(second, bobs, Self.empty, index: 1, as: Self.bob) == .status(.success))
        #expect(first.stagedRestoreBytes > 600 << 10)
    }

    /// The daemon's defaults: a user's share is a quarter of the pool, and a caller's no more than its user's.
    @Test func theDefaultShareOfAUserIsWellUnderThePool() {
        let limits = RestoreStagingPool.Limits()
        #expect(limits.bytesPerUser * 4 <= limits.bytesInAll)
        #expect(limits.bytesPerCaller <= limits.bytesPerUser)
        #expect(limits.bytesPerUser >= 64 << 20)
    }

    @Test func aCallerStagesAtMostTwoRestoresAtOnce() throws {
        let (service, url) = Self.service()
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(Self.stage(service, RestoreStagingID(1), Self.empty) == .status(.success))
        #expect(Self.stage(service, RestoreStagingID(2), Self.empty) == .status(.success))
        guard case .failure(.allocate, _) = Self.stage(service, RestoreStagingID(3), Self.empty) else {
            Issue.record("a third staging was accepted")
            return
        }
        #expect(Self.stage(service, RestoreStagingID(2), Self.empty, index: 1) == .status(.success))
    }

    @Test func partsMustComeInOrder() throws {
        let (service, url) = Self.service()
        defer { try? FileManager.default.removeItem(at: url) }
        let staging = RestoreStagingID.random()
        // A part whose predecessors are not here is refused: its restore lost them.
        guard case .failure(.param, let reason) = Self.stage(service, staging, Self.empty, index: 1) else {
            Issue.record("a second part without a first was staged")
            return
        }
        #expect(reason.hasPrefix("part 1 of a restore whose earlier parts this caller has not staged"))
        #expect(Self.stage(service, staging, Self.stream(records: 1)) == .status(.success))
        // A part sent twice, or skipped, drops the staging.
        guard case .failure(.param, _) = Self.stage(service, staging, Self.empty, index: 2) else {
            Issue.record("a part out of order was staged")
            return
        }
        #expect(service.stagedRestoreBytes == 0)
        #expect(Self.isNotStaged(Self.commit(service, staging)))
    }

    @Test func anAbandonedStagingIsDroppedAfterTwoMinutes() throws {
        let clock = TestClock()
        let (service, url) = Self.service(clock: clock)
        defer { try? FileManager.default.removeItem(at: url) }
        let kept = RestoreStagingID(1)
        let abandoned = RestoreStagingID(2)
        #expect(Self.stage(service, abandoned, Self.stream(records: 1)) == .status(.success))
        clock.advance(.seconds(100))
        #expect(Self.stage(service, kept, Self.empty) == .status(.success))
        clock.advance(.seconds(30))
        // 130 s after its last part the first staging is gone; the second, 30 s old, is kept.
        #expect(service.stagedRestoreBytes == 4096)
        #expect(Self.isNotStaged(Self.commit(service, abandoned)))
        #expect(Self.commit(service, kept) == .restoreReport(RestoreReport()))
    }

    @Test func aSessionThatEndsDropsItsStagings() throws {
        let (service, url) = Self.service()
        defer { try? FileManager.default.removeItem(at: url) }
        let staging = RestoreStagingID.random()
        #expect(Self.stage(service, staging, Self.stream(records: 3)) == .status(.success))
        #expect(service.stagedRestoreBytes > 0)
        service.endSession(0)
        #expect(service.stagedRestoreBytes == 0)
        #expect(Self.isNotStaged(Self.commit(service, staging)))
    }
}
