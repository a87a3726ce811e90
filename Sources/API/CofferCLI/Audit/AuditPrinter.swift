import Foundation
import KeychainModel
import KeychainOperations

/// A record as a line for people, or as a JSON object.
enum AuditPrinter {
    static func print(_ record: AuditRecord, json: Bool) throws {
        if json {
            try JSONOutput.print(object(record))
        } else {
            Swift.print(line(record))
        }
    }

    static func line(_ record: AuditRecord) -> String {
        let time = ISO8601DateFormatter().string(from: record.time)
        let items = record.items.isEmpty ? "" : " " + record.items.map { Hexadecimal.text($0) }.joined(separator: ",")
        let program = ControlCharacterEscaping.escaped(record.caller.program ?? "?")
        return "\(time) #\(record.sequence) \(eventName(record.event)) \(record.operation) \(record.itemClass ?? "-")\(items) status \(record.status)"
            + " by uid \(record.caller.uid) pid \(record.caller.pid) \(program) (\(kindName(record.caller.kind)))"
            + (record.accessGroups.isEmpty ? "" : " groups \(record.accessGroups.joined(separator: ","))")
            + (record.detail.map { " — \($0)" } ?? "")
    }

    static func object(_ record: AuditRecord) -> [String: Any] {
        var object: [String: Any] = [
            "sequence": record.sequence, "time": ISO8601DateFormatter().string(from: record.time), "event": eventName(record.event),
            "operation": record.operation, "status": record.status, "items": record.items.map { Hexadecimal.text($0) },
            "caller": ["uid": record.caller.uid, "pid": record.caller.pid, "program": record.caller.program ?? NSNull(), "kind": kindName(record.caller.kind)],
            "accessGroups": record.accessGroups,
        ]
        if let itemClass = record.itemClass { object["class"] = itemClass }
        if let detail = record.detail { object["detail"] = detail }
        return object
    }

    static func eventName(_ event: AuditRecord.Event) -> String {
        switch event {
        case .secretRead: "secret-read"
        case .itemAdded: "item-added"
        case .itemUpdated: "item-updated"
        case .itemDeleted: "item-deleted"
        case .keyUsed: "key-used"
        case .authentication: "authentication"
        case .locked: "locked"
        case .unlocked: "unlocked"
        case .passcodeChanged: "passcode-changed"
        case .registryChanged: "registry-changed"
        case .backup: "backup"
        case .restore: "restore"
        case .syncDeviceChanged: "sync-device-changed"
        case .auditSettingChanged: "audit-setting-changed"
        }
    }

    static func kindName(_ kind: CallerIdentity.Kind) -> String {
        switch kind {
        case .thisProcess: "this process"
        case .identityGroup(let gid): "identity group \(gid)"
        case .registeredPath: "registered path"
        case .unregistered: "unregistered"
        case .trustedFrontEnd: "trusted front end"
        case .person: "the person"
        case .keychain: "the keychain"
        case .systemdUnit: "systemd unit"
        }
    }
}
