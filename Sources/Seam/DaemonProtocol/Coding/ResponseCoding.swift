import KeychainModel
import KeychainOperations

/// The fields of each ``Response``; the layout of each is documented at its ``MessageTag``.
enum ResponseCoding {
    static func encode(_ response: Response, id: UInt64, into writer: inout WireWriter) throws(ProtocolError) {
        switch response {
        case .value(let value):
            writer.byte(MessageTag.value)
            writer.uint64(id)
            writer.bool(value != nil)
            if let value { try KeychainValueCoding.encode(value, depth: 0, into: &writer) }
        case .status(let status):
            writer.byte(MessageTag.status)
            writer.uint64(id)
            writer.int32(status.code)
        case .failure(let status, let reason):
            writer.byte(MessageTag.failure)
            writer.uint64(id)
            writer.int32(status.code)
            try writer.text(reason)
        case .keystoreError(let error):
            writer.byte(MessageTag.keystoreError)
            writer.uint64(id)
            try KeystoreErrorCoding.encode(error, into: &writer)
        case .lockStatus(let status):
            writer.byte(MessageTag.lockStatusResult)
            writer.uint64(id)
            writer.bool(status.passcodeSet)
            writer.byte(lockStateCode(status.lockState))
            writer.int(status.failedAttempts)
            writer.duration(status.retryAfter)
            writer.bool(status.eraseAfterFailedAttempts)
            try DeviceKeyProtectionCoding.encode(status.deviceKey, into: &writer)
        case .apps(let apps):
            writer.byte(MessageTag.apps)
            writer.uint64(id)
            try writer.count(apps.count)
            for app in apps { try encode(app, into: &writer) }
        case .prompt(let prompt):
            writer.byte(MessageTag.prompt)
            writer.uint64(id)
            writer.uint64(prompt.id)
            writer.byte(prompt.purpose.rawValue)
            try writer.text(prompt.requester)
            writer.int(prompt.failedAttempts)
            try writer.text(prompt.reason)
        case .authenticationFailure(let failure):
            writer.byte(MessageTag.authenticationFailure)
            writer.uint64(id)
            writer.int32(Int32(failure.code.rawValue))
            try writer.text(failure.reason)
        case .authenticationNeeded(let requirement):
            writer.byte(MessageTag.authenticationNeeded)
            writer.uint64(id)
            try AuthenticationCoding.encode(requirement, into: &writer)
        case .authenticationCapabilities(let capabilities):
            writer.byte(MessageTag.authenticationCapabilitiesResult)
            writer.uint64(id)
            try AuthenticationCoding.encode(capabilities, into: &writer)
        case .tokenKey(let key):
            writer.byte(MessageTag.tokenKey)
            writer.uint64(id)
            try TokenKeyCoding.encode(key, into: &writer)
        case .fileKey(let key):
            writer.byte(MessageTag.fileKey)
            writer.uint64(id)
            try FileKeyCoding.encode(key, into: &writer)
        case .backup(let contents):
            writer.byte(MessageTag.backup)
            writer.uint64(id)
            try BackupCoding.encode(contents, into: &writer)
        case .restoreReport(let report):
            writer.byte(MessageTag.restoreReport)
            writer.uint64(id)
            try BackupCoding.encode(report, into: &writer)
        case .syncState(let state):
            writer.byte(MessageTag.syncStateResult)
            writer.uint64(id)
            try SyncCoding.encode(state, into: &writer)
        case .syncReport(let report):
            writer.byte(MessageTag.syncReport)
            writer.uint64(id)
            SyncCoding.encode(report, into: &writer)
        case .auditPage(let page):
            writer.byte(MessageTag.auditPage)
            writer.uint64(id)
            try AuditCoding.encode(page, into: &writer)
        case .syncAccount(let answer):
            writer.byte(MessageTag.syncAccountResult)
            writer.uint64(id)
            try SyncAccountCoding.encode(answer, into: &writer)
        case .recoveryKey(let key):
            writer.byte(MessageTag.recoveryKey)
            writer.uint64(id)
            try writer.secret(key)
        case .addOutcomes(let outcomes):
            writer.byte(MessageTag.addOutcomes)
            writer.uint64(id)
            try writer.count(outcomes.count)
            for outcome in outcomes { writer.int32(outcome.code) }
        }
    }

    static func decode(tag: UInt8, from reader: inout WireReader) throws(ProtocolError) -> Response {
        switch tag {
        case MessageTag.value:
            guard try reader.bool("presence") else { return .value(nil) }
            return .value(try KeychainValueCoding.decode(depth: 0, from: &reader))
        case MessageTag.status:
            return .status(KeychainStatus(code: try reader.int32()))
        case MessageTag.failure:
            let status = KeychainStatus(code: try reader.int32())
            return .failure(status, reason: try reader.text())
        case MessageTag.keystoreError:
            return .keystoreError(try KeystoreErrorCoding.decode(from: &reader))
        case MessageTag.lockStatusResult:
            let passcodeSet = try reader.bool("passcode set")
            let lockState = try decodeLockState(try reader.byte())
            return .lockStatus(
                KeystoreStatus(
                    passcodeSet: passcodeSet, lockState: lockState, failedAttempts: try reader.int(),
                    retryAfter: try reader.duration(), eraseAfterFailedAttempts: try reader.bool("erase setting"),
                    deviceKey: try DeviceKeyProtectionCoding.decode(from: &reader)))
        case MessageTag.apps:
            // Path, identifier and group count take at least 12 bytes, the two presence bytes two more.
            let count = try reader.count(minimumElementSize: 14)
            var apps: [RegisteredApp] = []
            for _ in 0..<count { apps.append(try decodeApp(from: &reader)) }
            return .apps(apps)
        case MessageTag.prompt:
            let promptID = try reader.uint64()
            guard let purpose = Prompt.Purpose(rawValue: try reader.byte()) else {
                throw .malformedPayload(.invalidField("prompt purpose"))
            }
            let requester = try reader.text()
            let failedAttempts = try reader.int()
            let reason = try reader.text()
            let prompt = Prompt(id: promptID, purpose: purpose, requester: requester, failedAttempts: failedAttempts, reason: reason)
            // A prompt shows no control character: the daemon escapes them, so one that holds any was not made by it.
            guard prompt.requester == requester, prompt.reason == reason else {
                throw .malformedPayload(.invalidField("prompt text with control characters"))
            }
            return .prompt(prompt)
        case MessageTag.authenticationFailure:
            guard let code = AuthenticationFailure.Code(rawValue: Int(try reader.int32())) else {
                throw .malformedPayload(.invalidField("authentication failure code"))
            }
            return .authenticationFailure(AuthenticationFailure(code, reason: try reader.text()))
        case MessageTag.authenticationNeeded:
            return .authenticationNeeded(try AuthenticationCoding.decodeRequirement(from: &reader))
        case MessageTag.authenticationCapabilitiesResult:
            return .authenticationCapabilities(try AuthenticationCoding.decodeCapabilities(from: &reader))
        case MessageTag.tokenKey:
            return .tokenKey(try TokenKeyCoding.decodeKey(from: &reader))
        case MessageTag.fileKey:
            return .fileKey(try FileKeyCoding.decodeKey(from: &reader))
        case MessageTag.backup:
            return .backup(try BackupCoding.decodeContents(from: &reader))
        case MessageTag.restoreReport:
            return .restoreReport(try BackupCoding.decodeReport(from: &reader))
        case MessageTag.syncStateResult:
            return .syncState(try SyncCoding.decodeState(from: &reader))
        case MessageTag.syncReport:
            return .syncReport(try SyncCoding.decodeReport(from: &reader))
        case MessageTag.auditPage:
            return .auditPage(try AuditCoding.decodePage(from: &reader))
        case MessageTag.syncAccountResult:
            return .syncAccount(try SyncAccountCoding.decodeAnswer(from: &reader))
        case MessageTag.recoveryKey:
            return .recoveryKey(try reader.secret())
        case MessageTag.addOutcomes:
            let count = try reader.count(minimumElementSize: 4)
            var outcomes: [KeychainStatus] = []
            outcomes.reserveCapacity(count)
            for _ in 0..<count { outcomes.append(KeychainStatus(code: try reader.int32())) }
            return .addOutcomes(outcomes)
        default:
            throw .malformedPayload(.unknownMessage(tag))
        }
    }

    private static func encode(_ app: RegisteredApp, into writer: inout WireWriter) throws(ProtocolError) {
        try writer.countValue()
        try writer.text(app.executablePath)
        try writer.text(app.applicationIdentifier)
        try writer.texts(app.accessGroups)
        writer.bool(app.executableHash != nil)
        if let hash = app.executableHash { try writer.bytes(hash) }
        writer.bool(app.identityGroupID != nil)
        if let gid = app.identityGroupID { writer.uint32(gid) }
        writer.bool(app.isSystemdUnit)
    }

    private static func decodeApp(from reader: inout WireReader) throws(ProtocolError) -> RegisteredApp {
        try reader.countValue()
        let path = try reader.text()
        let identifier = try reader.text()
        let groups = try reader.texts()
        let hash = try reader.bool("presence") ? [UInt8](try reader.data()) : nil
        let gid = try reader.bool("presence") ? try reader.uint32() : nil
        return RegisteredApp(
            executablePath: path, applicationIdentifier: identifier, accessGroups: groups, executableHash: hash,
            identityGroupID: gid, isSystemdUnit: try reader.bool("unit"))
    }

    private static func lockStateCode(_ state: LockState) -> UInt8 {
        switch state {
        case .beforeFirstUnlock: 1
        case .unlocked: 2
        case .locked: 3
        }
    }

    private static func decodeLockState(_ code: UInt8) throws(ProtocolError) -> LockState {
        switch code {
        case 1: .beforeFirstUnlock
        case 2: .unlocked
        case 3: .locked
        default: throw .malformedPayload(.invalidField("lock state"))
        }
    }
}
