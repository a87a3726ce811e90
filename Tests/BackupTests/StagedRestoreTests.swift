import BackupFormat
import Coffer
import CofferTestSupport
import Foundation
import KeychainSelection
import KeychainModel
import KeychainOperations
import Query
import Synchronization
import Testing

/// Restores larger than one daemon request (17 MiB): the records go to the keychain in parts, kept for the
/// connection that sent them, bounded, and written in one transaction.
@Suite("Staged restores", .timeLimit(.minutes(10)))
struct StagedRestoreTests {
    static let password = SecretBytes(text: "correct horse battery staple")

    /// `count` generic passwords with 64 KiB secrets: 320 make about 20 MiB of records.
    static func largeItems(_ count: Int) -> [QueryDictionary] {
        (0..<count).map { index in
            ["class": "genp", "svce": "large", "acct": .string("acct-\(index)"), "v_Data": .data(largeSecret(index))]
        }
    }

    /// The 64 KiB secret of item `index`.
    static func largeSecret(_ index: Int) -> Data {
        var secret = Data(repeating: UInt8(truncatingIfNeeded: index), count: 64 << 10)
        secret.replaceSubrange(0..<8, with: withUnsafeBytes(of: UInt64(index)) { Data($0) })
        return secret
    }

    /// Every stage a restore reported, in order.
    final class StageLog: Sendable {
        private let stages = Mutex<[BackupStage]>([])
        func record(_ stage: BackupStage) { stages.withLock { $0.append(stage) } }
        var all: [BackupStage] { stages.withLock { $0 } }
    }

    /// A record stream of one generic-password record with `attributeBytes` of filler attributes (structure
    /// that holds, attributes that would not).
    static func fillerPart(attributeBytes: Int) -> SecretBytes {
        var bytes = Array("CFBR".utf8) + [1, 0, 0, 0, 1, 4] + Array("genp".utf8) + [2] + Array("ak".utf8)
        bytes += withUnsafeBytes(of: UInt32(attributeBytes).bigEndian) { Array($0) }
        bytes += [UInt8](repeating: 0x5A, count: attributeBytes) + [0]
        return SecretBytes(copying: bytes)
    }

    static func isNotStaged(_ response: Response) -> Bool {
        guard case .failure(.param, let reason) = response else { return false }
        return reason.hasPrefix("no restore is staged under")
    }

    @Test(.timeLimit(.minutes(2)), arguments: Transport.allCases)
    func aRestoreLargerThanOneDaemonRequestGoesThroughInParts(transport: Transport) async throws {
        let source = try BackupKeychain(.embedded)
        try source.seed(Self.largeItems(320))
        let records = BackupRecordStream.encode(try source.portableItems())
        #expect(records.count > 17 << 20)  // cofferd's largest request
        let file = source.file("large.cofferbackup")
        _ = try await source.keychain.backup(to: file, protection: .password(Self.password), kdf: .insecureForTesting)

        let destination = try BackupKeychain(transport)
        if transport == .daemon {
            // As one request, the records are more than the daemon accepts.
            let whole = destination.keychain.client.sendBlocking(.restoreBackup(BackupRestore(records: records, policy: .keep)))
            #expect((try? whole.restoreReportResult()) == nil)
        }
        let log = StageLog()
        let report = try await destination.keychain.restore(from: file, protection: .password(Self.password), progress: log.record)
        #expect(report.items == RestoreReport(added: 320))
        #expect(try destination.portableItems() == source.portableItems())
        let found = try destination.keychain.client.blocking.copyMatching(["class": "genp", "svce": "large", "acct": "acct-300", "r_Data": true])
        #expect(found == .data(Self.largeSecret(300)))

        // Progress: every part, then the keychain's transaction.
        let staging = log.all.compactMap { stage -> (Int, Int)? in
            if case .staging(let sent, let total) = stage { return (sent, total) } else { return nil }
        }
        let total = try #require(staging.first?.1)
        #expect(total >= 5)
        #expect(staging.map(\.0) == Array(0...total))
        #expect(log.all.last == .keychain)
        if let daemon = destination.daemon { #expect(daemon.stagedRestoreBytes == 0) }
    }

    @Test func anotherConnectionCannotCommitOrAddToAStagedRestore() throws {
        let source = try BackupKeychain(.embedded)
        try source.seed(mixedItems(8))
        let records = BackupRecordStream.encode(try source.portableItems())
        let destination = try BackupKeychain(.daemon)
        let socket = try #require(destination.daemon?.socketPath)
        let owner = DaemonKeychain(socketPath: socket)
        let other = DaemonKeychain(socketPath: socket)
        let staging = RestoreStagingID.random()
        #expect(owner.sendBlocking(.stageRestore(RestorePart(staging: staging, index: 0, records: records))) == .status(.success))
        #expect(Self.isNotStaged(other.sendBlocking(.restoreBackup(BackupRestore(staging: staging, policy: .replace)))))
        // The other connection's part under the same identifier is its own staging, not the owner's.
        #expect(other.sendBlocking(.stageRestore(RestorePart(staging: staging, index: 1, records: records))) != .status(.success))
        #expect(other.sendBlocking(.stageRestore(RestorePart(staging: staging, index: 0, records: records))) == .status(.success))
        #expect(try destination.rowCount() == 0)
        #expect(owner.sendBlocking(.restoreBackup(BackupRestore(staging: staging, policy: .keep))) == .restoreReport(RestoreReport(added: 8)))
        #expect(try destination.portableItems() == source.portableItems())
    }

    @Test(.timeLimit(.minutes(2))) func stagingPastTheLimitIsRefusedAndNothingIsWritten() throws {
        let destination = try BackupKeychain(.daemon)
        let client = destination.keychain.client
        let staging = RestoreStagingID.random()
        let part = Self.fillerPart(attributeBytes: 4 << 20)
        // 64 MiB per caller: fifteen parts of 4 MiB and a few bytes fit, the sixteenth does not.
        for index in 0..<15 {
            #expect(client.sendBlocking(.stageRestore(RestorePart(staging: staging, index: index, records: part))) == .status(.success), "part \(index)")
        }
        guard case .failure(.allocate, let reason) = client.sendBlocking(.stageRestore(RestorePart(staging: staging, index: 15, records: part))) else {
            Issue.record("a part past 64 MiB was staged")
            return
        }
        #expect(reason.contains("64 MiB one caller may stage"))
        #expect(destination.daemon?.stagedRestoreBytes == 0)
        #expect(Self.isNotStaged(client.sendBlocking(.restoreBackup(BackupRestore(staging: staging, policy: .keep)))))
        #expect(try destination.rowCount() == 0)
    }

    @Test(.timeLimit(.minutes(1))) func aClosedConnectionDropsItsStagingsAndItsLaterPartsAreRefused() throws {
        let destination = try BackupKeychain(.daemon)
        let daemon = try #require(destination.daemon)
        let staging = RestoreStagingID.random()
        let part = Self.fillerPart(attributeBytes: 1 << 20)
        do {
            let client = DaemonKeychain(socketPath: daemon.socketPath)
            #expect(client.sendBlocking(.stageRestore(RestorePart(staging: staging, index: 0, records: part))) == .status(.success))
            #expect(daemon.stagedRestoreBytes > 1 << 20)
        }
        // The client is gone, and its connection with it: the daemon drops the staging when it sees the close.
        let deadline = ContinuousClock.now + .seconds(20)
        while daemon.stagedRestoreBytes > 0, ContinuousClock.now < deadline { usleep(10_000) }
        #expect(daemon.stagedRestoreBytes == 0)
        // The next part, on a new connection, finds no earlier part: refused, never a restore of later parts alone.
        let next = DaemonKeychain(socketPath: daemon.socketPath)
        guard case .failure(.param, let reason) = next.sendBlocking(.stageRestore(RestorePart(staging: staging, index: 1, records: part))) else {
            Issue.record("a part without its predecessors was staged")
            return
        }
        #expect(reason.hasPrefix("part 1 of a restore whose earlier parts this caller has not staged"))
        #expect(daemon.stagedRestoreBytes == 0)
    }
}
