import BackupFormat
import Engine
import KeychainModel
import KeychainOperations
import Keystore

extension KeychainService {
    /// ``Request/exportBackup(_:)``: checks the passcode when one is set (counted as an unlock attempt), then
    /// reads the items that may leave the device, inside the service, into record streams of a few MiB.
    func exportBackup(_ export: BackupExport, caller: CallerContext) -> Response {
        if let refusal = ownerPasscodeRefusal(export.passcode, caller: caller, purpose: "exporting a backup") { return refusal }
        do {
            let exported = try run { () throws(EngineRefusal) -> ExportedBackup in try self.openedEngine().exportBackup(caller: caller) }
            let left = BackupContents.LeftBehind(
                thisDeviceOnly: exported.thisDeviceOnly, passcodeSetOnly: exported.passcodeSetOnly,
                nonExtractableKeys: exported.nonExtractableKeys, deviceBound: exported.deviceBound)
            return .backup(BackupContents(parts: exported.parts, itemCount: exported.itemCount, leftBehind: left))
        } catch {
            if error.status == .interactionNotAllowed {
                return .failure(.interactionNotAllowed, reason: "the keychain is locked; unlock it before making a backup")
            }
            return Response(error)
        }
    }

    /// ``Request/restoreBackup(_:)``: writes every record of the streams staged under the request's identifier
    /// (and of the request's own), decoded one at a time, in one transaction.
    func restoreBackup(_ restore: BackupRestore, caller: CallerContext, session: UInt64) -> Response {
        guard let streams = restoreStreams(restore, caller: caller, session: session) else {
            return .failure(
                .param,
                reason:
                    "no restore is staged under \(restore.staging.map(String.init(describing:)) ?? "") for this caller: it was already written, abandoned (no part for \(stagingTimeOut)) or its connection closed, or another caller staged it"
            )
        }
        // Staged parts were checked when they came; the request's own records are checked here.
        do {
            if restore.staging == nil || !restore.records.isEmpty { _ = try BackupRecordStream.count(in: restore.records) }
        } catch {
            return .failure(.decode, reason: error.description)
        }
        let policy: RestoreOutcome.Policy =
            switch restore.policy {
            case .keep: .keep
            case .replace: .replace
            case .both: .both
            }
        let engine: KeychainEngine
        do {
            engine = try run { () throws(EngineRefusal) -> KeychainEngine in try self.openedEngine() }
        } catch {
            return Response(error)
        }
        do throws(KeychainFailure) {
            let outcome = try engine.restoreBackup(streams, policy: policy, caller: caller)
            return .restoreReport(
                RestoreReport(
                    added: outcome.added, identical: outcome.identical,
                    conflicts: outcome.conflicts.map { conflict in
                        RestoreConflict(itemClass: conflict.itemClass, summary: conflict.summary, outcome: Self.outcome(conflict.resolution))
                    }))
        } catch {
            return Response(error)
        }
    }

    private static func outcome(_ resolution: RestoreOutcome.Resolution) -> RestoreConflict.Outcome {
        switch resolution {
        case .keptExisting: .keptExisting
        case .replaced: .replaced
        case .keptBoth: .keptBoth
        case .notRestorable: .notRestorable
        }
    }
}
