import CTPM
import Foundation
import KeychainModel
import Synchronization

/// One connection to a TPM 2.0: its storage root key, and a session salted with that key that encrypts every
/// secret the TPM is sent or sends back, so the bus or the resource manager carries none.
///
/// ESAPI's context is not thread-safe: this one owner serialises every command behind its lock. Calls block the
/// calling thread for the TPM's time (milliseconds on a hardware TPM), so they are made from Coffer's worker
/// threads, never from Swift's cooperative pool. Objects are loaded for one use and flushed, but for the one HMAC
/// key in use, which stays loaded so that an unlock is one command.
///
/// Each operation takes the authorisation value its object was made with (none for a keychain's own objects; one per
/// user for the objects cofferd's TPM service makes, ``TPMServiceServer``): the salted session proves it to the TPM.
/// Every object is noDA, so a wrong value is refused without counting towards the TPM's dictionary-attack lockout.
public final class PlatformTPM: TPMDevice {
    /// The TCTI configuration this connection was opened with.
    public let tcti: String
    /// The storage root key the TPM answered with when this connection opened.
    public let storageRootKey: StorageRootKey
    private let state: Mutex<State>

    /// ESAPI's context, used only under ``state``'s lock.
    private struct Context: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private struct State: ~Copyable {
        let context: Context
        /// The HMAC key kept loaded: its wrapped form, the authorisation value it was loaded with, its handle.
        var loadedHMACKey: (blob: Data, authorization: Data, handle: UInt32)?
        /// TPM commands sent since opening, for the figures (an unlock sends at most two).
        var commandsSent = 0

        deinit { coffer_tpm_close(context.pointer) }
    }

    /// Opens the TPM `tcti` names, makes its storage root key and starts the salted session (three commands).
    public init(tcti: String) throws(TPMError) {
        var context: OpaquePointer?
        var x = [UInt8](repeating: 0, count: 32)
        var y = [UInt8](repeating: 0, count: 32)
        let code = coffer_tpm_open(tcti, &context, &x, &y)
        guard code == 0, let context else { throw Self.error(code, doing: "open the TPM at \(tcti)") }
        self.tcti = tcti
        storageRootKey = StorageRootKey(x: Data(x), y: Data(y))
        state = Mutex(State(context: Context(pointer: context), commandsSent: 2))
    }

    /// The TPM commands sent through this connection so far.
    public var commandsSent: Int { state.withLock { $0.commandsSent } }

    /// The largest authorisation value an object may have.
    public static let authorizationCapacity = Int(COFFER_TPM_AUTH_CAPACITY)

    /// Seals up to 128 bytes under the storage root key: only this TPM, with the same owner seed, unseals them, and
    /// only while the PCRs `pcrs` names hold their present values.
    public func seal(_ secret: SecretBytes, pcrs: PCRSelection) throws(TPMError) -> Data {
        try seal(secret, authorization: ObjectAuthorization(), pcrs: pcrs)
    }

    /// Unseals what ``seal(_:pcrs:)`` sealed (three commands: load, unseal, flush; three more for PCRs: a policy
    /// session, its PolicyPCR, its flush).
    public func unseal(_ blob: Data, pcrs: PCRSelection) throws(TPMError) -> SecretBytes {
        try unseal(blob, authorization: ObjectAuthorization(), pcrs: pcrs)
    }

    /// Makes an HMAC-SHA256 key inside the TPM; its wrapped form is only usable with this TPM.
    public func createHMACKey() throws(TPMError) -> Data { try createHMACKey(authorization: ObjectAuthorization()) }

    /// HMAC-SHA256 of `input` (at most 1,024 bytes) under the HMAC key `keyBlob` wraps: one command when that key is
    /// the one kept loaded, two when it must be loaded (and a flush of the one it replaces).
    public func hmac(keyBlob: Data, _ input: SecretBytes) throws(TPMError) -> SecretBytes {
        try hmac(keyBlob: keyBlob, input, authorization: ObjectAuthorization())
    }

    /// Makes an ECC P-256 key inside the TPM that signs and agrees: its wrapped form and its public key in ANSI
    /// X9.63 form (`04 ‖ x ‖ y`).
    public func createECCKey() throws(TPMError) -> (blob: Data, publicKey: Data) { try createECCKey(authorization: ObjectAuthorization()) }

    /// An ECDSA signature, as raw r ‖ s (64 bytes), over a SHA-256 digest, with the key `keyBlob` wraps.
    public func sign(keyBlob: Data, digest: Data) throws(TPMError) -> Data {
        try sign(keyBlob: keyBlob, digest: digest, authorization: ObjectAuthorization())
    }

    /// The x coordinate of the ECDH shared point between the key `keyBlob` wraps and `peer` (X9.63, 65 bytes).
    public func keyAgreement(keyBlob: Data, peer: Data) throws(TPMError) -> SecretBytes {
        try keyAgreement(keyBlob: keyBlob, peer: peer, authorization: ObjectAuthorization())
    }

    /// ``seal(_:pcrs:)`` for an object used with `authorization`.
    public func seal(_ secret: SecretBytes, authorization: ObjectAuthorization, pcrs: PCRSelection = .none) throws(TPMError) -> Data {
        try state.withLock { state throws(TPMError) -> Data in
            state.commandsSent += pcrs.isEmpty ? 1 : 5
            return try Self.blob(doing: "seal the device key") { buffer, capacity, length in
                secret.withUnsafeBytes { bytes in
                    authorization.withBytes { auth, authLength in
                        coffer_tpm_seal(
                            state.context.pointer, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, auth, authLength, pcrs.mask,
                            buffer, capacity, length)
                    }
                }
            }
        }
    }

    /// ``unseal(_:pcrs:)`` of an object made with `authorization`.
    public func unseal(_ blob: Data, authorization: ObjectAuthorization, pcrs: PCRSelection = .none) throws(TPMError) -> SecretBytes {
        try state.withLock { state throws(TPMError) -> SecretBytes in
            state.commandsSent += pcrs.isEmpty ? 3 : 6
            var code: UInt32 = 0
            let secret = SecretBytes(capacity: 128) { buffer in
                var length = 0
                code = blob.withUnsafeBytes { bytes in
                    authorization.withBytes { auth, authLength in
                        coffer_tpm_unseal(
                            state.context.pointer, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, auth, authLength,
                            pcrs.mask, buffer.bindMemory(to: UInt8.self).baseAddress, buffer.count, &length)
                    }
                }
                return code == 0 ? length : 0
            }
            guard code == 0 else { throw Self.error(code, doing: "unseal the device key") }
            return secret
        }
    }

    /// ``createHMACKey()`` for a key used with `authorization`.
    public func createHMACKey(authorization: ObjectAuthorization) throws(TPMError) -> Data {
        try state.withLock { state throws(TPMError) -> Data in
            state.commandsSent += 1
            return try Self.blob(doing: "create the passcode key") { buffer, capacity, length in
                authorization.withBytes { auth, authLength in
                    coffer_tpm_create_hmac_key(state.context.pointer, auth, authLength, buffer, capacity, length)
                }
            }
        }
    }

    /// ``hmac(keyBlob:_:)`` with a key made with `authorization`. The key kept loaded is reused only for the same
    /// wrapped form and the same authorisation value, so one caller never runs a key loaded for another.
    public func hmac(keyBlob: Data, _ input: SecretBytes, authorization: ObjectAuthorization) throws(TPMError) -> SecretBytes {
        try state.withLock { state throws(TPMError) -> SecretBytes in
            let handle: UInt32
            if let loaded = state.loadedHMACKey, loaded.blob == keyBlob, loaded.authorization == authorization.bytes {
                handle = loaded.handle
            } else {
                if let loaded = state.loadedHMACKey {
                    state.commandsSent += 1
                    _ = coffer_tpm_flush(state.context.pointer, loaded.handle)
                    state.loadedHMACKey = nil
                }
                state.commandsSent += 1
                handle = try Self.load(keyBlob, authorization, into: state.context.pointer, doing: "load the passcode key")
                state.loadedHMACKey = (keyBlob, authorization.bytes, handle)
            }
            state.commandsSent += 1
            var code: UInt32 = 0
            let mac = SecretBytes(capacity: 32) { buffer in
                code = input.withUnsafeBytes { bytes in
                    coffer_tpm_hmac(
                        state.context.pointer, handle, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count,
                        buffer.bindMemory(to: UInt8.self).baseAddress)
                }
                return code == 0 ? 32 : 0
            }
            guard code == 0 else { throw Self.error(code, doing: "run the passcode key") }
            return mac
        }
    }

    /// ``createECCKey()`` for a key used with `authorization`.
    public func createECCKey(authorization: ObjectAuthorization) throws(TPMError) -> (blob: Data, publicKey: Data) {
        try state.withLock { state throws(TPMError) -> (blob: Data, publicKey: Data) in
            state.commandsSent += 1
            var x = [UInt8](repeating: 0, count: 32)
            var y = [UInt8](repeating: 0, count: 32)
            let blob = try Self.blob(doing: "create a key in the TPM") { buffer, capacity, length in
                authorization.withBytes { auth, authLength in
                    coffer_tpm_create_ecc_key(state.context.pointer, auth, authLength, buffer, capacity, length, &x, &y)
                }
            }
            return (blob, Data([4] + x + y))
        }
    }

    /// ``sign(keyBlob:digest:)`` with a key made with `authorization`.
    public func sign(keyBlob: Data, digest: Data, authorization: ObjectAuthorization) throws(TPMError) -> Data {
        guard digest.count == 32 else { throw TPMError(code: 0xC0FF_0003, reason: "a TPM signature is over a 32-byte digest") }
        return try withLoadedKey(keyBlob, authorization) { context, handle throws(TPMError) -> Data in
            var r = [UInt8](repeating: 0, count: 32)
            var s = [UInt8](repeating: 0, count: 32)
            let code = digest.withUnsafeBytes { coffer_tpm_sign(context, handle, $0.bindMemory(to: UInt8.self).baseAddress, &r, &s) }
            guard code == 0 else { throw Self.error(code, doing: "sign with a key in the TPM") }
            return Data(r + s)
        }
    }

    /// ``keyAgreement(keyBlob:peer:)`` with a key made with `authorization`.
    public func keyAgreement(keyBlob: Data, peer: Data, authorization: ObjectAuthorization) throws(TPMError) -> SecretBytes {
        guard peer.count == 65, peer.first == 4 else {
            throw TPMError(code: 0xC0FF_0003, reason: "the peer's public key is not an uncompressed P-256 point")
        }
        return try withLoadedKey(keyBlob, authorization) { context, handle throws(TPMError) -> SecretBytes in
            let x = [UInt8](peer[peer.startIndex + 1..<peer.startIndex + 33])
            let y = [UInt8](peer[peer.startIndex + 33..<peer.startIndex + 65])
            var code: UInt32 = 0
            let shared = SecretBytes(capacity: 32) { buffer in
                code = coffer_tpm_ecdh(context, handle, x, y, buffer.bindMemory(to: UInt8.self).baseAddress)
                return code == 0 ? 32 : 0
            }
            guard code == 0 else { throw Self.error(code, doing: "agree on a key in the TPM") }
            return shared
        }
    }

    /// Loads `blob`, runs `body` with its handle (one command), and flushes it: three commands in all.
    private func withLoadedKey<Result>(
        _ blob: Data, _ authorization: ObjectAuthorization, _ body: (OpaquePointer, UInt32) throws(TPMError) -> sending Result
    ) throws(TPMError) -> Result {
        try state.withLock { state throws(TPMError) -> Result in
            state.commandsSent += 3
            let context = state.context
            let handle = try Self.load(blob, authorization, into: context.pointer, doing: "load a key into the TPM")
            defer { _ = coffer_tpm_flush(context.pointer, handle) }
            return try body(context.pointer, handle)
        }
    }

    private static func load(
        _ blob: Data, _ authorization: ObjectAuthorization, into context: OpaquePointer, doing what: String
    ) throws(TPMError) -> UInt32 {
        var handle: UInt32 = 0
        let code = blob.withUnsafeBytes { bytes in
            authorization.withBytes { auth, authLength in
                coffer_tpm_load(context, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count, auth, authLength, &handle)
            }
        }
        guard code == 0 else { throw error(code, doing: what) }
        return handle
    }

    private static func blob(
        doing what: String, _ make: (UnsafeMutablePointer<UInt8>, Int, UnsafeMutablePointer<Int>) -> UInt32
    ) throws(TPMError) -> Data {
        var buffer = [UInt8](repeating: 0, count: Int(COFFER_TPM_BLOB_CAPACITY))
        var length = 0
        let code = buffer.withUnsafeMutableBufferPointer { make($0.baseAddress!, $0.count, &length) }
        guard code == 0 else { throw error(code, doing: what) }
        return Data(buffer.prefix(length))
    }

    static func error(_ code: UInt32, doing what: String) -> TPMError {
        var text = [CChar](repeating: 0, count: 512)
        coffer_tpm_error_text(code, &text, text.count)
        var detail = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // TPM_RC_OBJECT_MEMORY and TPM_RC_SESSION_MEMORY: a TPM reached without a resource manager is full.
        if code == 0x902 || code == 0x903 {
            detail += "; a TPM reached without the kernel's resource manager holds three objects: use device:/dev/tpmrm0, or one keychain process at a time"
        }
        if TPMError(code: code, reason: "").isPolicyFailure {
            detail += "; the PCRs it is bound to no longer hold the values they had when it was sealed (firmware, bootloader or Secure Boot changed)"
        }
        if TPMError(code: code, reason: "").isWrongAuthorization {
            detail +=
                "; the object was made for another caller: cofferd's TPM service makes objects only the same user can use, "
                + "and a keychain's own objects are not usable through it"
        }
        return TPMError(code: code, reason: "cannot \(what): \(detail)")
    }
}
