import KeychainModel
import KeychainOperations
import Query

/// The fields of each ``Request``; the layout of each is documented at its ``MessageTag``.
enum RequestCoding {
    static func encode(_ request: Request, id: UInt64, into writer: inout WireWriter) throws(ProtocolError) {
        writer.byte(tag(of: request))
        writer.uint64(id)
        switch request {
        case .add(let query), .copyMatching(let query), .delete(let query):
            try KeychainValueCoding.encode(query, into: &writer)
        case .addEach(let queries):
            try writer.count(queries.count)
            for query in queries { try KeychainValueCoding.encode(query, into: &writer) }
        case .update(let query, let attributesToUpdate):
            try KeychainValueCoding.encode(query, into: &writer)
            try KeychainValueCoding.encode(attributesToUpdate, into: &writer)
        case .lockStatus, .lock, .appsList, .unlockWithPrompt, .awaitPrompt, .authenticationCapabilities, .syncNow:
            break
        case .syncAccount(let request):
            try SyncAccountCoding.encode(request, into: &writer)
        case .syncState(let known):
            writer.bool(known != nil)
            if let known { try SyncCoding.encode(known, into: &writer) }
        case .authenticate(let authentication):
            try AuthenticationCoding.encode(authentication, into: &writer)
        case .setCredential(let context, let password):
            try writer.bytes(context.bytes)
            writer.bool(password != nil)
            if let password { try writer.secret(password) }
        case .invalidateContext(let context):
            try writer.bytes(context.bytes)
        case .createTokenKey(let creation):
            TokenKeyCoding.encode(creation, into: &writer)
        case .useTokenKey(let use):
            try TokenKeyCoding.encode(use, into: &writer)
        case .makeFileKey(let protection):
            FileKeyCoding.encode(protection, into: &writer)
        case .unwrapFileKey(let wrapped):
            try FileKeyCoding.encode(wrapped, into: &writer)
        case .exportBackup(let export):
            try BackupCoding.encode(export, into: &writer)
        case .auditRecords(let read):
            try AuditCoding.encode(read, into: &writer)
        case .auditSetting(let setting):
            try AuditCoding.encode(setting, into: &writer)
        case .restoreBackup(let restore):
            try BackupCoding.encode(restore, into: &writer)
        case .stageRestore(let part):
            try BackupCoding.encode(part, into: &writer)
        case .answerPrompt(let promptID, let passcode):
            writer.uint64(promptID)
            writer.bool(passcode != nil)
            if let passcode { try writer.secret(passcode) }
        case .unlock(let passcode), .proveOwner(let passcode):
            try writer.secret(passcode)
        case .proveOwnerWithPrompt(let reason):
            try writer.text(reason)
        case .appsAdd(let registration, let passcode):
            try writer.text(registration.executablePath)
            try writer.text(registration.applicationIdentifier)
            try writer.texts(registration.accessGroups)
            writer.bool(registration.pinsExecutableHash)
            writer.byte(registration.mode.rawValue)
            try writer.secret(passcode)
        case .appsRemove(.executablePath(let path), let passcode):
            writer.byte(1)
            try writer.text(path)
            try writer.secret(passcode)
        case .appsRemove(.applicationIdentifier(let identifier), let passcode):
            writer.byte(2)
            try writer.text(identifier)
            try writer.secret(passcode)
        case .setPasscode(let new):
            try writer.secret(new)
        case .changePasscode(let old, let new):
            try writer.secret(old)
            try writer.secret(new)
        case .removePasscode(let current):
            try writer.secret(current)
        case .setEraseAfterFailedAttempts(let enabled, let passcode):
            writer.bool(enabled)
            try writer.secret(passcode)
        case .deviceKeyBinding(let change):
            try DeviceKeyBindingCoding.encode(change, into: &writer)
        }
    }

    static func decode(tag: UInt8, from reader: inout WireReader) throws(ProtocolError) -> Request {
        switch tag {
        case MessageTag.add: return .add(try KeychainValueCoding.decodeQueryDictionary(from: &reader))
        case MessageTag.addEach:
            // A dictionary's entry count takes 4 bytes.
            let count = try reader.count(minimumElementSize: 4)
            guard count <= Request.maximumAddEachCount else { throw .malformedPayload(.invalidField("bulk add of \(count) items")) }
            var queries: [QueryDictionary] = []
            queries.reserveCapacity(count)
            for _ in 0..<count { queries.append(try KeychainValueCoding.decodeQueryDictionary(from: &reader)) }
            return .addEach(queries)
        case MessageTag.copyMatching: return .copyMatching(try KeychainValueCoding.decodeQueryDictionary(from: &reader))
        case MessageTag.update:
            let query = try KeychainValueCoding.decodeQueryDictionary(from: &reader)
            return .update(
                query: query, attributesToUpdate: try KeychainValueCoding.decodeQueryDictionary(from: &reader))
        case MessageTag.delete: return .delete(try KeychainValueCoding.decodeQueryDictionary(from: &reader))
        case MessageTag.lockStatus: return .lockStatus
        case MessageTag.unlock:
            return .unlock(passcode: try reader.secret())
        case MessageTag.setPasscode:
            return .setPasscode(new: try reader.secret())
        case MessageTag.changePasscode:
            let old = try reader.secret()
            return .changePasscode(old: old, new: try reader.secret())
        case MessageTag.removePasscode:
            return .removePasscode(current: try reader.secret())
        case MessageTag.setEraseAfterFailedAttempts:
            let enabled = try reader.bool("erase setting")
            return .setEraseAfterFailedAttempts(enabled, passcode: try reader.secret())
        case MessageTag.lock: return .lock
        case MessageTag.unlockWithPrompt: return .unlockWithPrompt
        case MessageTag.awaitPrompt: return .awaitPrompt
        case MessageTag.proveOwner: return .proveOwner(passcode: try reader.secret())
        case MessageTag.proveOwnerWithPrompt: return .proveOwnerWithPrompt(reason: try reader.text())
        case MessageTag.answerPrompt:
            let promptID = try reader.uint64()
            guard try reader.bool("passcode presence") else { return .answerPrompt(id: promptID, passcode: nil) }
            return .answerPrompt(id: promptID, passcode: try reader.secret())
        case MessageTag.authenticate: return .authenticate(try AuthenticationCoding.decodeRequest(from: &reader))
        case MessageTag.setCredential:
            let context = try AuthenticationCoding.decodeContext(from: &reader)
            guard try reader.bool("password presence") else { return .setCredential(context: context, applicationPassword: nil) }
            return .setCredential(context: context, applicationPassword: try reader.secret())
        case MessageTag.invalidateContext: return .invalidateContext(try AuthenticationCoding.decodeContext(from: &reader))
        case MessageTag.authenticationCapabilities: return .authenticationCapabilities
        case MessageTag.createTokenKey: return .createTokenKey(try TokenKeyCoding.decodeCreation(from: &reader))
        case MessageTag.useTokenKey: return .useTokenKey(try TokenKeyCoding.decodeUse(from: &reader))
        case MessageTag.makeFileKey: return .makeFileKey(try FileKeyCoding.decodeProtection(from: &reader))
        case MessageTag.unwrapFileKey: return .unwrapFileKey(try FileKeyCoding.decodeWrapped(from: &reader))
        case MessageTag.exportBackup: return .exportBackup(try BackupCoding.decodeExport(from: &reader))
        case MessageTag.auditRecords: return .auditRecords(try AuditCoding.decodeRead(from: &reader))
        case MessageTag.auditSetting: return .auditSetting(try AuditCoding.decodeSetting(from: &reader))
        case MessageTag.restoreBackup: return .restoreBackup(try BackupCoding.decodeRestore(from: &reader))
        case MessageTag.stageRestore: return .stageRestore(try BackupCoding.decodePart(from: &reader))
        case MessageTag.syncState:
            guard try reader.bool("state presence") else { return .syncState(changedFrom: nil) }
            return .syncState(changedFrom: try SyncCoding.decodeState(from: &reader))
        case MessageTag.syncNow: return .syncNow
        case MessageTag.syncAccount: return .syncAccount(try SyncAccountCoding.decodeRequest(from: &reader))
        case MessageTag.deviceKeyBinding: return .deviceKeyBinding(try DeviceKeyBindingCoding.decode(from: &reader))
        case MessageTag.appsList: return .appsList
        case MessageTag.appsAdd:
            let path = try reader.text()
            let identifier = try reader.text()
            let groups = try reader.texts()
            let pins = try reader.bool("hash pin")
            guard let mode = AppIdentityMode(rawValue: try reader.byte()) else {
                throw .malformedPayload(.invalidField("identity mode"))
            }
            let registration = AppRegistration(
                executablePath: path, applicationIdentifier: identifier, accessGroups: groups, pinsExecutableHash: pins,
                mode: mode)
            return .appsAdd(registration, passcode: try reader.secret())
        case MessageTag.appsRemove:
            let selector: AppSelector
            switch try reader.byte() {
            case 1: selector = .executablePath(try reader.text())
            case 2: selector = .applicationIdentifier(try reader.text())
            default: throw .malformedPayload(.invalidField("app selector"))
            }
            return .appsRemove(selector, passcode: try reader.secret())
        default:
            throw .malformedPayload(.unknownMessage(tag))
        }
    }

    private static func tag(of request: Request) -> UInt8 { request.kind.traits.wireTag }
}
