import AuditTrail
import Engine
import KeychainModel
import KeychainOperations
import Keystore

extension KeychainService {
    /// ``Request/auditRecords(_:)``: checks the passcode when one is set (counted as an unlock attempt), then reads
    /// the journal's records after the one asked for, and verifies the whole journal when asked.
    func auditRecords(_ read: AuditRead, caller: CallerContext) -> Response {
        if let refusal = ownerPasscodeRefusal(read.passcode, caller: caller, purpose: "reading its audit journal") { return refusal }
        do {
            let engine = try engine()
            let check = read.verify ? AuditCheck(engine.verifyAuditJournal()) : nil
            // A damaged journal is answered with where it is damaged; its records are not read as valid.
            if case .damaged? = check { return .auditPage(AuditPage(records: [], hasMore: false, check: check)) }
            let journal = try engine.auditJournal()
            let found = try journal.records(after: read.after)
            let limit = min(max(read.limit, 1), AuditRead.largestLimit)
            var records: [AuditRecord] = []
            for entry in found.prefix(limit) {
                do {
                    records.append(try AuditRecord(decoding: entry.payload, sequence: entry.sequence))
                } catch {
                    return .failure(.decode, reason: "audit record \(entry.sequence) cannot be read: \(error.reason)")
                }
            }
            return .auditPage(AuditPage(records: records, hasMore: found.count > limit, check: check))
        } catch let status as KeychainStatus {
            return .status(status)
        } catch let failure as AuditJournalError {
            return .failure(.io, reason: failure.description)
        } catch {
            return .failure(.internal, reason: "\(error)")
        }
    }
}

extension KeychainService {
    /// ``Request/auditSetting(_:)``: checks the passcode when one is set (counted as an unlock attempt), then changes
    /// the setting when asked; answers the setting.
    func auditSetting(_ setting: AuditSetting, caller: CallerContext) -> Response {
        if let refusal = ownerPasscodeRefusal(setting.passcode, caller: caller, purpose: "changing how its audit journal is kept") {
            return refusal
        }
        do {
            let engine = try engine()
            if let refuses = setting.refuseUnrecordedReads { try engine.setRefusesUnrecordedReads(refuses) }
            return .value(.bool(engine.refusesUnrecordedReads))
        } catch let status as KeychainStatus {
            return .status(status)
        } catch let error as KeystoreError {
            return .keystoreError(error)
        } catch {
            return .failure(.internal, reason: "\(error)")
        }
    }
}

extension AuditCheck {
    init(_ verification: AuditVerification) {
        switch verification {
        case .intact(let records, let first, let last, let rotatedAway):
            self = .intact(records: records, firstSequence: first, lastSequence: last, rotatedAway: rotatedAway)
        case .damaged(let file, let sequence, let reason):
            self = .damaged(file: file, sequence: sequence, reason: reason)
        }
    }
}
