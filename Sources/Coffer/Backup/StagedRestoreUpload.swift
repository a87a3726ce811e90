import BackupFormat
import KeychainClient
import KeychainModel
import KeychainOperations

/// Sends an opened backup's records to the keychain in parts, then asks for the restore of them all: the same
/// on both transports, and within the daemon's 17 MiB request limit however large the backup.
enum StagedRestoreUpload {
    /// The most bytes of records one part carries (a record larger than that travels alone).
    static let partBytes = 4 << 20

    /// Stages `records` in parts under a fresh identifier, then restores them with `policy` in one transaction.
    /// Blocks the calling thread (a thread of Coffer's own).
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
        let staging = RestoreStagingID.random()
        for (index, part) in parts.enumerated() {
            progress(.staging(sent: index, total: parts.count))
            let request = Request.stageRestore(RestorePart(staging: staging, index: index, records: BackupRecordStream.stream(of: part, in: records)))
            do throws(KeychainFailure) {
                try client.sendBlocking(request).restoreStagingResult()
            } catch {
                throw BackupError(error, doing: "sending the items to the keychain")
            }
        }
        progress(.staging(sent: parts.count, total: parts.count))
        progress(.keychain)
        do throws(KeychainFailure) {
            return try client.sendBlocking(.restoreBackup(BackupRestore(staging: staging, policy: policy))).restoreReportResult()
        } catch {
            throw BackupError(error, doing: "restoring the items")
        }
    }
}
