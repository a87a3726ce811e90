import KeychainModel
import KeychainOperations

/// ``DeviceKeyBindingChange`` on the wire: the kind (one byte: 1 bind, 2 unbind, 3 recovery key, 4 recover), then
/// for 1 the PCRs (presence byte, then a UInt32 mask: bit i for PCR i), for 3 whether to renew (boolean byte), for 4
/// the recovery key (secret), then the passcode (presence byte, secret).
enum DeviceKeyBindingCoding {
    static func encode(_ change: DeviceKeyBindingChange, into writer: inout WireWriter) throws(ProtocolError) {
        let passcode: SecretBytes?
        switch change {
        case .bindTPM(let given, let pcrs):
            writer.byte(1)
            writer.bool(pcrs != nil)
            if let pcrs {
                guard pcrs.allSatisfy((0...23).contains) else { throw .malformedPayload(.invalidField("PCR selection")) }
                writer.uint32(pcrs.reduce(UInt32(0)) { $0 | 1 << UInt32($1) })
            }
            passcode = given
        case .unbindTPM(let given):
            writer.byte(2)
            passcode = given
        case .recoveryKey(let renew, let given):
            writer.byte(3)
            writer.bool(renew)
            passcode = given
        case .recover(let recoveryKey, let given):
            writer.byte(4)
            try writer.secret(recoveryKey)
            passcode = given
        }
        writer.bool(passcode != nil)
        if let passcode { try writer.secret(passcode) }
    }

    static func decode(from reader: inout WireReader) throws(ProtocolError) -> DeviceKeyBindingChange {
        let kind = try reader.byte()
        var pcrs: [Int]?
        if kind == 1, try reader.bool("PCR presence") { pcrs = try pcrList(reader.uint32()) }
        let renew = kind == 3 ? try reader.bool("renew") : false
        let recoveryKey = kind == 4 ? try reader.secret() : nil
        let passcode = try reader.bool("passcode presence") ? try reader.secret() : nil
        switch kind {
        case 1: return .bindTPM(passcode: passcode, pcrs: pcrs)
        case 2: return .unbindTPM(passcode: passcode)
        case 3: return .recoveryKey(renew: renew, passcode: passcode)
        case 4: return .recover(recoveryKey: recoveryKey ?? SecretBytes(copying: []), passcode: passcode)
        default: throw .malformedPayload(.invalidField("device key binding change"))
        }
    }

    /// The PCRs a mask names; a mask naming one past 23 is malformed.
    private static func pcrList(_ mask: UInt32) throws(ProtocolError) -> [Int] {
        guard mask & ~0x00FF_FFFF == 0 else { throw .malformedPayload(.invalidField("PCR selection")) }
        return (0...23).filter { mask & (1 << UInt32($0)) != 0 }
    }
}
