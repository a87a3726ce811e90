import BackupFormat
import KeychainClient
import KeychainModel
import KeychainOperations

/// Sends a backup's records to the keychain in parts under one fresh staging identifier, then asks for the
/// restore of them all in one transaction: the same on both transports, and within the daemon's 17 MiB
/// request limit however large the backup. Blocks the calling thread (a thread of Coffer's own).
struct StagedRestoreUpload {
    /// The most bytes of records one part carries (a record larger than that travels alone).
    static let partBytes = BackupRecordStream.partBytes

    private let client: any KeychainClient
    private let progress: @Sendable (BackupStage) -> Void
    private let staging = RestoreStagingID.random()
    /// About how many parts will be sent, for progress.
    private let expectedParts: Int
    private var sent = 0

    init(client: any KeychainClient, expectedParts: Int, progress: @escaping @Sendable (BackupStage) -> Void) {
        self.client = client
        self.expectedParts = expectedParts
        self.progress = progress
    }

    /// Stages `part` (a record stream of its own) after the ones sent before.
    mutating func stage(_ part: SecretBytes) throws(BackupError) {
        progress(.staging(sent: sent, total: max(expectedParts, sent + 1)))
        let request = Request.stageRestore(RestorePart(staging: staging, index: sent, records: part))
        do throws(KeychainFailure) {
            try client.sendBlocking(request).restoreStagingResult()
        } catch {
            throw BackupError(error, doing: "sending the items to the keychain")
        }
        sent += 1
    }

    /// Restores every part staged, with `policy`, in one transaction.
    func restore(policy: RestorePolicy) throws(BackupError) -> RestoreReport {
        progress(.staging(sent: sent, total: sent))
        progress(.keychain)
        do throws(KeychainFailure) {
            return try client.sendBlocking(.restoreBackup(BackupRestore(staging: staging, policy: policy))).restoreReportResult()
        } catch {
            throw BackupError(error, doing: "restoring the items")
        }
    }

    /// Stages `records` (one whole record stream) in parts, then restores them with `policy`.
    static func restore(
        _ records: SecretBytes, policy: RestorePolicy, client: any KeychainClient,
        progress: @escaping @Sendable (BackupStage) -> Void
    ) throws(BackupError) -> RestoreReport {
        let parts: [BackupRecordStream.Part]
        do throws(BackupFormatError) {
            parts = try BackupRecordStream.parts(of: records, maximumBytes: partBytes)
        } catch {
            throw BackupError(error)
        }
        var upload = StagedRestoreUpload(client: client, expectedParts: parts.count, progress: progress)
        for part in parts { try upload.stage(BackupRecordStream.stream(of: part, in: records)) }
        return try upload.restore(policy: policy)
    }
}
