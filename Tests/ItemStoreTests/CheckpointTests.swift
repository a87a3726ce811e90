import Foundation
import KeychainModel
import Testing

@testable import ItemStore

/// Checkpoints never run inside a commit: the log's pages move into the database file on the checkpointer's
/// thread, or, when none got to finish, on the writer once the log reached its bound.
@Suite("ItemStore: checkpoints off the writer's path", .timeLimit(.minutes(2)))
struct CheckpointTests {
    /// Pages in the log: what the writer's WAL hook last reported.
    private func logPages(_ store: ItemStore) -> Int { store.walSize.pagesAfterLastCommit }

    @Test func aCommitNeverCheckpointsItself() throws {
        var options = ItemStore.Options()
        options.checkpointPages = 1_000_000
        options.checkpointPagesOnCaller = 1_000_000
        try withStore(options: options) { store, _, folder in
            // Each add writes several pages; SQLite's own hook would have checkpointed past 1,000 and restarted
            // the log, so its size would have fallen back.
            var previous = 0
            for number in 0..<200 {
                try store.write { try $0.insert(genericPassword(account: "account-\(number)")) }
                #expect(logPages(store) > previous, "add \(number): the log restarted, so something checkpointed")
                previous = logPages(store)
            }
            #expect(previous > 1_000)
            #expect(store.checkpointer.progress.completedRuns == 0)
            let logSize = try FileManager.default.attributesOfItem(atPath: folder.database.path + "-wal")[.size] as? Int ?? 0
            #expect(logSize >= previous * 4096)
        }
    }

    @Test func pastTheThresholdTheCheckpointerCopiesTheLogOnItsOwnThread() throws {
        var options = ItemStore.Options()
        options.checkpointPages = 30
        try withStore(options: options) { store, _, _ in
            // The new file's schema is in the log already; the first commit takes it past the threshold.
            var number = 0
            repeat {
                try store.write { try $0.insert(genericPassword(account: "account-\(number)")) }
                number += 1
            } while logPages(store) < 30
            let deadline = Date().addingTimeInterval(30)
            while store.checkpointer.progress.completedRuns == 0 && Date() < deadline { usleep(10_000) }
            let progress = store.checkpointer.progress
            #expect(progress.completedRuns >= 1)
            let run = try #require(progress.lastRun)
            #expect(run.checkpointedFrames > 0 && run.checkpointedFrames <= run.logFrames)
            // Once every frame is in the database file, the next commit starts the log over.
            while store.checkpointer.progress.lastRun.map({ $0.checkpointedFrames < $0.logFrames }) ?? true && Date() < deadline {
                store.checkpointer.request()
                usleep(10_000)
            }
            let before = logPages(store)
            try store.write { try $0.insert(genericPassword(account: "after the checkpoint")) }
            #expect(logPages(store) < before)
            // Everything written is still there, read through the database file and the new log.
            #expect(try store.read { try $0.count(of: .genericPassword) } == number + 1)
        }
    }

    @Test func whereNoBackgroundCheckpointFinishesTheWriterBoundsTheLog() throws {
        var options = ItemStore.Options()
        options.checkpointPages = 20
        options.checkpointPagesOnCaller = 20
        try withStore(options: options) { store, _, _ in
            // The first commit's log also holds the new file's schema.
            try store.write { try $0.insert(genericPassword(account: "first")) }
            var largest = 0
            for number in 0..<100 {
                try store.write { try $0.insert(genericPassword(account: "account-\(number)")) }
                if number > 1 { largest = max(largest, logPages(store)) }
            }
            // Each crossing checkpointed on the writer, so the log restarted instead of growing to hundreds of pages.
            #expect(largest < 60)
            #expect(store.checkpointer.progress.completedRuns == 0)
            #expect(try store.read { try $0.count(of: .genericPassword) } == 101)
        }
    }
}
