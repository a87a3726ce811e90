import CofferDiagnostics
import Foundation
import KeychainModel
import KeychainOperations

extension KeychainService {
    /// Records `request`'s answer when the journal keeps its kind: locks and unlocks, passcode changes, owner proofs,
    /// registry changes, backups and restores. Item calls and key uses are recorded where they run, with their items.
    func audit(_ request: Request, caller: CallerContext, answer: Response) {
        guard let event = Self.auditEvent(of: request) else { return }
        if case .auditSetting(let setting) = request, setting.refuseUnrecordedReads == nil { return }
        let detail: String? =
            switch request {
            case .setPasscode: "set"
            case .changePasscode: "changed"
            case .removePasscode: "removed"
            case .setEraseAfterFailedAttempts(let enabled, _): enabled ? "erase after failed attempts on" : "erase after failed attempts off"
            case .appsAdd(let registration, _): "registered \(registration.executablePath) as \(registration.applicationIdentifier)"
            case .appsRemove(.executablePath(let path), _): "removed \(path)"
            case .appsRemove(.applicationIdentifier(let identifier), _): "removed \(identifier)"
            case .exportBackup: if case .backup(let contents) = answer { "\(contents.itemCount) items" } else { nil }
            case .restoreBackup:
                if case .restoreReport(let report) = answer { "\(report.added) added, \(report.conflicts.count) conflicts" } else { nil }
            case .proveOwner: Self.authenticationDetail(answer, askedPerson: true)
            case .auditSetting(let setting):
                setting.refuseUnrecordedReads.map { $0 ? "refuse secret reads it cannot record" : "serve secret reads it cannot record" }
            default: nil
            }
        recordAudit(
            AuditRecord(
                time: Date(), event: event, operation: request.name, caller: caller.identity, accessGroups: caller.groupList,
                status: answer.auditStatus, detail: detail))
    }

    /// The event a request that is not an item call or a key use is recorded as, or nil when the journal does not
    /// keep it (a lock status, a sync state: reads that touch no secret).
    static func auditEvent(of request: Request) -> AuditRecord.Event? {
        switch request {
        case .unlock: .unlocked
        case .lock: .locked
        case .setPasscode, .changePasscode, .removePasscode, .setEraseAfterFailedAttempts: .passcodeChanged
        case .proveOwner: .authentication
        case .appsAdd, .appsRemove: .registryChanged
        case .exportBackup: .backup
        case .restoreBackup: .restore
        case .auditSetting: .auditSettingChanged
        default: nil
        }
    }

    /// Records an authentication's decision: passed or not, and whether a person was asked. The reason the caller
    /// gave for the prompt is not recorded.
    public func recordAuthentication(_ operation: String, caller: CallerContext, answer: Response, askedPerson: Bool) {
        recordAudit(
            AuditRecord(
                time: Date(), event: .authentication, operation: operation, caller: caller.identity, accessGroups: caller.groupList,
                status: answer.auditStatus, detail: Self.authenticationDetail(answer, askedPerson: askedPerson)))
    }

    /// How an authentication ended, in words.
    static func authenticationDetail(_ answer: Response, askedPerson: Bool) -> String {
        switch answer {
        case .status(.success): askedPerson ? "passed" : "already proved"
        case .authenticationFailure(let failure):
            switch failure.code {
            case .userCancel, .appCancel: "cancelled"
            case .systemCancel: "timed out or cancelled by the system"
            case .notInteractive: "nobody could be asked"
            case .authenticationFailed: "refused"
            default: "failed (LAError \(failure.code.rawValue))"
            }
        case .keystoreError(.wrongPasscode): "refused: wrong passcode"
        case .keystoreError(.cancelled): "cancelled"
        default: "failed"
        }
    }

    /// Appends `record` to this keychain's audit journal; a record that cannot be written is logged, and false. A
    /// keychain whose files are not open (a call that failed before reaching them) is not opened, nor made, for it.
    @discardableResult
    public func recordAudit(_ record: AuditRecord) -> Bool {
        guard let engine = openedEngineIfAny else {
            DiagnosticsLevel.logger(label: "coffer.audit").debug(
                "not recorded: the keychain's files are not open", metadata: ["operation": "\(record.operation)"])
            return false
        }
        do {
            try engine.auditJournal().append(record.encoded())
            return true
        } catch {
            DiagnosticsLevel.logger(label: "coffer.audit").warning("an audit record could not be written: \(error)")
            return false
        }
    }

    /// `answer`, or `errSecIO` in its place when it gives a secret the journal did not record and the keychain
    /// refuses such reads.
    func refusing(_ answer: Response, unless recorded: Bool) -> Response {
        guard !recorded, let engine = openedEngineIfAny, engine.refusesUnrecordedReads else { return answer }
        return .failure(
            .io,
            reason:
                "the audit journal cannot be written (see the log), and this keychain refuses secret reads it cannot record; free space in its folder, or turn the refusal off with `coffer audit require off`"
        )
    }
}
