import CofferTestSupport
import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations
import Testing

/// A restore staged in parts counts all of them against the storage quota when it is committed, as one large
/// restore request would have been counted.
@Suite("Staged restores and the storage quota", .timeLimit(.minutes(10)))
struct StagedRestoreQuotaTests {
    /// A record stream of one generic-password record with `attributeBytes` of filler attributes.
    static func fillerPart(attributeBytes: Int) -> SecretBytes {
        var bytes = Array("CFBR".utf8) + [1, 0, 0, 0, 1, 4] + Array("genp".utf8) + [2] + Array("ak".utf8)
        bytes += withUnsafeBytes(of: UInt32(attributeBytes).bigEndian) { Array($0) }
        bytes += [UInt8](repeating: 0x5A, count: attributeBytes) + [0]
        return SecretBytes(copying: bytes)
    }

    @Test(.timeLimit(.minutes(1))) func aCommitCountsEveryStagedPartAgainstTheQuota() throws {
        let daemon = try DaemonProcess(extraArguments: ["--storage-quota-per-user", "2"])
        let client = daemon.client()
        let staging = RestoreStagingID.random()
        let part = Self.fillerPart(attributeBytes: 768 << 10)
        // Each part fits the 2 MiB quota alone; the three together do not.
        for index in 0..<3 {
            #expect(client.sendBlocking(.stageRestore(RestorePart(staging: staging, index: index, records: part))) == .status(.success))
        }
        guard case .failure(.diskFull, let reason) = client.sendBlocking(.restoreBackup(BackupRestore(staging: staging, policy: .keep))) else {
            Issue.record("a staged restore larger than the quota was let through to the keychain")
            return
        }
        #expect(reason.contains("quota"))
        #expect(daemon.terminate() == 0)
    }
}
