import KeychainModel

/// `KeystoreError`: one byte for the case (1–17, in declaration order), then its fields.
enum KeystoreErrorCoding {
    static func encode(_ error: KeystoreError, into writer: inout WireWriter) throws(ProtocolError) {
        switch error {
        case .classUnavailable(let protection):
            writer.byte(1)
            writer.protection(protection)
        case .classMissing(let protection):
            writer.byte(2)
            writer.protection(protection)
        case .wrongPasscode(let failedAttempts, let retryAfter):
            writer.byte(3)
            writer.int(failedAttempts)
            writer.duration(retryAfter)
        case .throttled(let retryAfter):
            writer.byte(4)
            writer.duration(retryAfter)
        case .passcodeTooShort(let minimum):
            writer.byte(5)
            writer.int(minimum)
        case .noPasscodeSet: writer.byte(6)
        case .passcodeAlreadySet: writer.byte(7)
        case .keybagDamaged(let reason):
            writer.byte(8)
            try writer.text(reason)
        case .deviceKeyDamaged(let reason):
            writer.byte(9)
            try writer.text(reason)
        case .wrappedKeyCorrupt: writer.byte(10)
        case .erasedAfterFailedAttempts: writer.byte(11)
        case .io(let reason):
            writer.byte(12)
            try writer.text(reason)
        case .unavailable(let reason):
            writer.byte(13)
            try writer.text(reason)
        case .cancelled: writer.byte(14)
        case .notPermitted(let reason):
            writer.byte(15)
            try writer.text(reason)
        case .readOnly(let reason):
            writer.byte(16)
            try writer.text(reason)
        case .ownerProofRequired(let reason):
            writer.byte(17)
            try writer.text(reason)
        case .tpmUnavailable(let reason):
            writer.byte(18)
            try writer.text(reason)
        case .wrongRecoveryKey:
            writer.byte(19)
        }
    }

    static func decode(from reader: inout WireReader) throws(ProtocolError) -> KeystoreError {
        switch try reader.byte() {
        case 1: return .classUnavailable(try reader.protection())
        case 2: return .classMissing(try reader.protection())
        case 3: return .wrongPasscode(failedAttempts: try reader.int(), retryAfter: try reader.duration())
        case 4: return .throttled(retryAfter: try reader.duration())
        case 5: return .passcodeTooShort(minimum: try reader.int())
        case 6: return .noPasscodeSet
        case 7: return .passcodeAlreadySet
        case 8: return .keybagDamaged(reason: try reader.text())
        case 9: return .deviceKeyDamaged(reason: try reader.text())
        case 10: return .wrappedKeyCorrupt
        case 11: return .erasedAfterFailedAttempts
        case 12: return .io(reason: try reader.text())
        case 13: return .unavailable(reason: try reader.text())
        case 14: return .cancelled
        case 15: return .notPermitted(reason: try reader.text())
        case 16: return .readOnly(reason: try reader.text())
        case 17: return .ownerProofRequired(reason: try reader.text())
        case 18: return .tpmUnavailable(reason: try reader.text())
        case 19: return .wrongRecoveryKey
        default: throw .malformedPayload(.invalidField("keystore error"))
        }
    }
}
