import Crypto
import Foundation
import KeychainModel
import TrustedPlatformModule

/// The file of a keychain bound to a TPM (`device-key.tpm`, 0600): what opens the device key on this TPM, and on no
/// other, and what opens it with the recovery key instead.
///
/// `CFDT` ‖ version (2, or 3 when bound to PCRs) ‖ how the TPM is reached (0 directly, 1 through the system cofferd's
/// TPM service; absent in version 1, which is direct) ‖ in version 3, the PCRs the device key is sealed to (a UInt32
/// big-endian mask of the SHA-256 bank) ‖ the storage root key's x and y (32 bytes each) ‖ four fields, each a UInt16 big-endian length
/// and its bytes: the device key sealed under that SRK, the passcode's HMAC key (made inside the TPM, usable only
/// there), the device key under the recovery key (``DeviceKeyEscrow``) and the recovery key sealed under the SRK
/// until a person has been shown it (empty after) ‖ the first 16 bytes of SHA-256 over what precedes. No field holds
/// anything usable without this TPM or the recovery key.
struct TPMDeviceKeyFile: Sendable, Equatable {
    private static let magic = Array("CFDT".utf8)
    private static let version: UInt8 = 2
    private static let versionWithPCRs: UInt8 = 3
    private static let checksumLength = 16

    /// The storage root key the device key was sealed to.
    var storageRootKey: StorageRootKey
    /// The device key, sealed under that SRK.
    var sealedDeviceKey: Data
    /// The HMAC key of the passcode derivation, wrapped by that SRK.
    var passcodeHMACKey: Data
    /// The device key under the recovery key.
    var escrow: Data
    /// The recovery key sealed under the SRK until it is shown; empty after.
    var pendingRecoveryKey: Data
    /// How the TPM was reached when these objects were made: the service's objects answer only through it.
    var route: Route = .direct
    /// The PCRs the device key is sealed to (only the device key: the passcode's key and the pending recovery key are
    /// not, so a changed boot state never loses the recovery key before it is shown).
    var pcrs: PCRSelection = .none

    /// How a keychain reaches its TPM.
    enum Route: UInt8, Sendable {
        /// Through tpm2-tss, with objects that need no authorisation value.
        case direct = 0
        /// Through the system cofferd's TPM service, whose objects only the same user can use through it.
        case systemService = 1

        /// The route `tpm` takes.
        init(of tpm: any TPMDevice) { self = tpm is TPMServiceClient ? .systemService : .direct }
    }

    func encoded() -> Data {
        var file = Data(Self.magic)
        file.append(pcrs.isEmpty ? Self.version : Self.versionWithPCRs)
        file.append(route.rawValue)
        if !pcrs.isEmpty { withUnsafeBytes(of: pcrs.mask.bigEndian) { file.append(contentsOf: $0) } }
        file.append(storageRootKey.x)
        file.append(storageRootKey.y)
        for field in [sealedDeviceKey, passcodeHMACKey, escrow, pendingRecoveryKey] {
            withUnsafeBytes(of: UInt16(field.count).bigEndian) { file.append(contentsOf: $0) }
            file.append(field)
        }
        file.append(contentsOf: SHA256.hash(data: file).prefix(Self.checksumLength))
        return file
    }

    static func decode(_ file: Data) throws(KeystoreError) -> TPMDeviceKeyFile {
        let bytes = [UInt8](file)
        guard bytes.count > magic.count else { throw .deviceKeyDamaged(reason: "its TPM file is truncated") }
        let fileVersion = bytes[magic.count]
        let header = magic.count + (fileVersion == 1 ? 1 : fileVersion == versionWithPCRs ? 6 : 2)
        let fixed = header + 64
        guard bytes.count >= fixed + 8 + checksumLength else { throw .deviceKeyDamaged(reason: "its TPM file is truncated") }
        let body = bytes[..<(bytes.count - checksumLength)]
        guard SHA256.hash(data: body).prefix(checksumLength).elementsEqual(bytes.suffix(checksumLength)) else {
            throw .deviceKeyDamaged(reason: "its TPM file's checksum does not match")
        }
        guard bytes.prefix(magic.count).elementsEqual(magic), [1, version, versionWithPCRs].contains(fileVersion),
            let route = fileVersion == 1 ? .direct : Route(rawValue: bytes[magic.count + 1]),
            let pcrs = fileVersion == versionWithPCRs
                ? PCRSelection(mask: bytes[(magic.count + 2)..<header].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }) : PCRSelection.none,
            fileVersion != versionWithPCRs || !pcrs.isEmpty
        else {
            throw .deviceKeyDamaged(reason: "its TPM file has an unknown format")
        }
        var offset = fixed
        var fields: [Data] = []
        for _ in 0..<4 {
            guard offset + 2 <= body.count else { throw .deviceKeyDamaged(reason: "its TPM file is truncated") }
            let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            offset += 2
            guard offset + length <= body.count else { throw .deviceKeyDamaged(reason: "its TPM file is truncated") }
            fields.append(Data(bytes[offset..<(offset + length)]))
            offset += length
        }
        guard offset == body.count else { throw .deviceKeyDamaged(reason: "its TPM file has trailing bytes") }
        let srk = StorageRootKey(x: Data(bytes[header..<(header + 32)]), y: Data(bytes[(header + 32)..<fixed]))
        return TPMDeviceKeyFile(
            storageRootKey: srk, sealedDeviceKey: fields[0], passcodeHMACKey: fields[1], escrow: fields[2], pendingRecoveryKey: fields[3],
            route: route, pcrs: pcrs)
    }

    static func load(from url: URL) throws(KeystoreError) -> TPMDeviceKeyFile? {
        guard let file = try SecureFile.read(url, limit: 16384) else { return nil }
        return try decode(file.withUnsafeBytes { Data($0) })
    }

    func write(to url: URL) throws(KeystoreError) {
        let data = encoded()
        var failure: KeystoreError?
        data.withUnsafeBytes { bytes in
            do throws(KeystoreError) { try SecureFile.writeAtomically(bytes, to: url) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}
