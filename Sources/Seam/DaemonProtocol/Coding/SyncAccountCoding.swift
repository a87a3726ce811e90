import Foundation
import KeychainModel
import KeychainOperations

/// The fields of ``MessageTag/syncAccount`` and ``MessageTag/syncAccountResult``: a kind byte, then the kind's fields.
enum SyncAccountCoding {
    static func encode(_ request: SyncAccountRequest, into writer: inout WireWriter) throws(ProtocolError) {
        switch request {
        case .setUp(let server, let password, let deviceName):
            writer.byte(1)
            try writer.text(server)
            try writer.secret(password)
            try writer.text(deviceName)
        case .join(let server, let password, let deviceName, let recoveryKey):
            writer.byte(2)
            try writer.text(server)
            try writer.secret(password)
            try writer.text(deviceName)
            try writer.secret(recoveryKey)
        case .requestToJoin(let server, let password, let deviceName):
            writer.byte(3)
            try writer.text(server)
            try writer.secret(password)
            try writer.text(deviceName)
        case .awaitJoin: writer.byte(4)
        case .approve(let code):
            writer.byte(5)
            try writer.text(code)
        case .devices: writer.byte(6)
        case .removeDevice(let device):
            writer.byte(7)
            try writer.text(device)
        case .leave: writer.byte(8)
        }
    }

    static func decodeRequest(from reader: inout WireReader) throws(ProtocolError) -> SyncAccountRequest {
        switch try reader.byte() {
        case 1: return .setUp(server: try reader.text(), password: try reader.secret(), deviceName: try reader.text())
        case 2:
            return .join(server: try reader.text(), password: try reader.secret(), deviceName: try reader.text(), recoveryKey: try reader.secret())
        case 3: return .requestToJoin(server: try reader.text(), password: try reader.secret(), deviceName: try reader.text())
        case 4: return .awaitJoin
        case 5: return .approve(code: try reader.text())
        case 6: return .devices
        case 7: return .removeDevice(try reader.text())
        case 8: return .leave
        default: throw .malformedPayload(.invalidField("sync account request"))
        }
    }

    static func encode(_ answer: SyncAccountAnswer, into writer: inout WireWriter) throws(ProtocolError) {
        switch answer {
        case .done: writer.byte(1)
        case .recoveryKey(let key):
            writer.byte(2)
            try writer.secret(key)
        case .pairingCode(let code):
            writer.byte(3)
            try writer.text(code)
        case .device(let device):
            writer.byte(4)
            try encode(device, into: &writer)
        case .devices(let devices):
            writer.byte(5)
            try writer.count(devices.count)
            for device in devices {
                try writer.countValue()
                try encode(device, into: &writer)
            }
        }
    }

    static func decodeAnswer(from reader: inout WireReader) throws(ProtocolError) -> SyncAccountAnswer {
        switch try reader.byte() {
        case 1: return .done
        case 2: return .recoveryKey(try reader.secret())
        case 3: return .pairingCode(try reader.text())
        case 4: return .device(try decodeDevice(from: &reader))
        case 5:
            // An id (length and 16 bytes), a name (length), two flags.
            let count = try reader.count(minimumElementSize: 26)
            var devices: [SyncDeviceSummary] = []
            for _ in 0..<count {
                try reader.countValue()
                devices.append(try decodeDevice(from: &reader))
            }
            return .devices(devices)
        default: throw .malformedPayload(.invalidField("sync account answer"))
        }
    }

    private static func encode(_ device: SyncDeviceSummary, into writer: inout WireWriter) throws(ProtocolError) {
        try writer.bytes(withUnsafeBytes(of: device.id.uuid) { Data($0) })
        try writer.text(device.name)
        writer.bool(device.isThisDevice)
        writer.bool(device.isRecoveryKey)
    }

    private static func decodeDevice(from reader: inout WireReader) throws(ProtocolError) -> SyncDeviceSummary {
        let id = try reader.data()
        guard id.count == 16 else { throw .malformedPayload(.invalidField("device id")) }
        let uuid = id.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }
        return SyncDeviceSummary(
            id: UUID(uuid: uuid), name: try reader.text(), isThisDevice: try reader.bool("this device"),
            isRecoveryKey: try reader.bool("recovery key"))
    }
}
