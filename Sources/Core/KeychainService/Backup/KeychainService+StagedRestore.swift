import BackupFormat
import KeychainModel
import KeychainOperations

extension KeychainService {
    /// ``Request/stageRestore(_:)``: checks the part's structure, then keeps it for the caller until the restore
    /// that names its staging identifier. Nothing is written.
    func stageRestore(_ part: RestorePart, caller: CallerContext, session: UInt64) -> Response {
        let owner = StagedRestores.Owner(session: session, caller: caller)
        do {
            _ = try BackupRecordStream.count(in: part.records)
        } catch {
            _ = stagedRestores.take(part.staging, owner: owner)
            return .failure(.decode, reason: error.description)
        }
        do throws(StagedRestores.Refusal) {
            try stagedRestores.stage(part.records, index: part.index, staging: part.staging, owner: owner)
            return .status(.success)
        } catch {
            return .failure(error.status, reason: error.reason)
        }
    }

    /// The record streams a restore writes: the parts staged under its identifier by this caller, then its own
    /// records when it has any; nil when it names a staging this caller does not have.
    func restoreStreams(_ restore: BackupRestore, caller: CallerContext, session: UInt64) -> [SecretBytes]? {
        guard let staging = restore.staging else { return [restore.records] }
        guard let parts = stagedRestores.take(staging, owner: StagedRestores.Owner(session: session, caller: caller)) else { return nil }
        return restore.records.isEmpty ? parts : parts + [restore.records]
    }

    /// The staging time-out, for reasons.
    var stagingTimeOut: String { "\(stagedRestores.abandonedAfter.components.seconds) s" }

    /// The bytes of restores staged in this keychain service now, every caller's (each part counted as at least
    /// a page).
    public var stagedRestoreBytes: Int { stagedRestores.stagedBytes }

    /// The bytes of restores `session` (a daemon connection) has staged now.
    public func stagedRestoreBytes(session: UInt64) -> Int { stagedRestores.stagedBytes(session: session) }
}
