import KeychainModel

/// ``DeviceKeyProtection`` on the wire, at the end of a lock status: a byte (0 a file, 1 a TPM), then for a file a
/// presence byte and the reason no TPM protects it, for a TPM its TCTI, the SRK's fingerprint, the PCR count and
/// each PCR as a UInt32, and whether the recovery key is pending.
enum DeviceKeyProtectionCoding {
    static func encode(_ protection: DeviceKeyProtection, into writer: inout WireWriter) throws(ProtocolError) {
        switch protection {
        case .file(let whyNoTPM):
            writer.byte(0)
            writer.bool(whyNoTPM != nil)
            if let whyNoTPM { try writer.text(whyNoTPM) }
        case .tpm(let binding):
            writer.byte(1)
            try writer.text(binding.tcti)
            try writer.text(binding.storageRootKeyFingerprint)
            try writer.count(binding.pcrs.count)
            for pcr in binding.pcrs { writer.uint32(UInt32(clamping: pcr)) }
            writer.bool(binding.recoveryKeyPending)
        }
    }

    static func decode(from reader: inout WireReader) throws(ProtocolError) -> DeviceKeyProtection {
        switch try reader.byte() {
        case 0:
            return .file(whyNoTPM: try reader.bool("reason presence") ? try reader.text() : nil)
        case 1:
            let tcti = try reader.text()
            let fingerprint = try reader.text()
            let count = try reader.count(minimumElementSize: 4)
            var pcrs: [Int] = []
            for _ in 0..<count { pcrs.append(Int(try reader.uint32())) }
            return .tpm(
                DeviceKeyProtection.TPMBinding(
                    tcti: tcti, storageRootKeyFingerprint: fingerprint, pcrs: pcrs,
                    recoveryKeyPending: try reader.bool("recovery key pending")))
        default:
            throw .malformedPayload(.invalidField("device key protection"))
        }
    }
}
