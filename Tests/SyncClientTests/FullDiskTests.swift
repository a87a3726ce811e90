import Foundation
import Query
import SyncClient
import Testing
import TestProcesses

/// A device whose disk fills up while it applies what it pulled: `coffer sync now` fails with a message naming the
/// write that failed, nothing already in the keychain is lost or damaged, and once there is room the next run
/// brings everything. The full disk is the process's file size limit (`ulimit -f`, with SIGXFSZ ignored, so a write
/// past it fails as on a full file system), which needs no privilege to set.
@Suite("Sync: a full disk", .timeLimit(.minutes(10)))
struct FullDiskTests {
    @Test func aFullDiskStopsTheRunAndLosesNothing() async throws {
        try await withTwoDevices { server, laptop, desktop in
            try desktop.add(genp("already", "here", ["sync": true, "v_Data": secret("kept")]))
            _ = try await desktop.sync.syncNow()
            let batch = (0..<600).map { genp("full-disk", "item-\($0)", ["sync": true, "v_Data": .data(Data(repeating: UInt8($0 % 251), count: 512))]) }
            #expect(try laptop.keychain.blocking.addEach(batch).allSatisfy(\.isSuccess))
            _ = try await laptop.sync.syncNow()

            // Room for 64 KiB more than the largest file of the keychain now has.
            let files = try FileManager.default.contentsOfDirectory(atPath: desktop.folder.url.path)
            let largest =
                try files.map { try FileManager.default.attributesOfItem(atPath: desktop.folder.url.appendingPathComponent($0).path)[.size] as? Int ?? 0 }.max()
                ?? 0
            let blocks = (largest + 65_536) / 512
            let environment = cofferEnvironment(home: desktop.folder.url.path)
            let full = try ChildProcess.run(
                ["/bin/sh", "-c", "trap '' XFSZ; ulimit -f \(blocks); exec \"$0\" sync now", builtExecutable()], environment: environment)
            #expect(full.status != 0, "the run ended well with the disk full: \(full.outputText)")
            #expect(!full.errorText.isEmpty)
            #expect(!full.errorText.contains("value-"), "an error shows a secret")

            #expect(try desktop.data(genp("already", "here", ["sync": true])).get() == Data("kept".utf8))
            let room = try ChildProcess.run([builtExecutable(), "sync", "now"], environment: environment)
            #expect(room.status == 0, "\(room.errorText)")
            for index in 0..<600 {
                #expect(try desktop.data(genp("full-disk", "item-\(index)", ["sync": true])).get() == Data(repeating: UInt8(index % 251), count: 512))
            }
            #expect(try desktop.sync.status().incoming == 0)
        }
    }
}
