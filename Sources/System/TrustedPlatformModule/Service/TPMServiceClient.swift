import CofferRuntime
import Foundation
import KeychainModel
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The TPM as the system cofferd serves it (`COFFER_TPM=cofferd:PATH`, or by default when this process may not open
/// `/dev/tpmrm0` and the service's socket exists): for keychains of users outside group `tss`.
///
/// The service makes every object with an authorisation value derived from the caller's uid, which only it knows, so
/// an object one user made is of no use to another who copies it. The service is trusted with what the keychain
/// seals, so before anything is sent the server is checked: its process runs as root or as the socket's owner, and
/// the socket's folder is writable by no one else. One connection, kept open; a request that finds it closed (cofferd
/// restarted) connects once more and checks that the TPM is the same one.
public final class TPMServiceClient: TPMDevice {
    /// The socket path.
    public let path: String
    /// `cofferd:PATH`.
    public var tcti: String { "\(Self.scheme)\(path)" }
    /// The storage root key the service's TPM answered with.
    public let storageRootKey: StorageRootKey
    private let connection: Mutex<Int32>
    private let requests = Atomic<Int>(1)

    /// The prefix of `COFFER_TPM` that names cofferd's TPM service.
    public static let scheme = "cofferd:"

    /// Connects to the service at `path`, checks who serves it, and asks for its TPM's storage root key.
    public init(path: String) throws(TPMError) {
        self.path = path
        let descriptor = try Self.connect(path)
        do throws(TPMError) {
            let answer = try Self.exchange(TPMServiceMessage(.hello), on: descriptor, path: path)
            if let failure = answer.failure { throw failure }
            guard answer.kind == .storageRootKey, answer.fields.count == 2, answer.fields.allSatisfy({ $0.count == 32 }) else {
                throw Self.unexpected(path)
            }
            storageRootKey = StorageRootKey(x: answer.fields[0], y: answer.fields[1])
        } catch {
            close(descriptor)
            throw error
        }
        connection = Mutex(descriptor)
    }

    deinit { connection.withLock { close($0) } }

    /// The requests made of the service so far (one TPM operation each).
    public var commandsSent: Int { requests.load(ordering: .relaxed) }

    public func seal(_ secret: SecretBytes, pcrs: PCRSelection) throws(TPMError) -> Data {
        try bytes(ask(.seal, [secret.withUnsafeBytes { Data($0) }] + Self.field(pcrs)))
    }

    public func unseal(_ blob: Data, pcrs: PCRSelection) throws(TPMError) -> SecretBytes {
        try secret(ask(.unseal, [blob] + Self.field(pcrs)))
    }

    /// A PCR selection's field (its mask, 4 bytes big-endian), sent only when it names PCRs.
    private static func field(_ pcrs: PCRSelection) -> [Data] {
        pcrs.isEmpty ? [] : [withUnsafeBytes(of: pcrs.mask.bigEndian) { Data($0) }]
    }

    public func createHMACKey() throws(TPMError) -> Data { try bytes(ask(.createHMACKey)) }

    public func hmac(keyBlob: Data, _ input: SecretBytes) throws(TPMError) -> SecretBytes {
        try secret(ask(.hmac, [keyBlob, input.withUnsafeBytes { Data($0) }]))
    }

    public func createECCKey() throws(TPMError) -> (blob: Data, publicKey: Data) {
        let answer = try ask(.createECCKey)
        guard answer.kind == .eccKey, answer.fields.count == 2, answer.fields[1].count == 65 else { throw Self.unexpected(path) }
        return (answer.fields[0], answer.fields[1])
    }

    public func sign(keyBlob: Data, digest: Data) throws(TPMError) -> Data { try bytes(ask(.sign, [keyBlob, digest])) }

    public func keyAgreement(keyBlob: Data, peer: Data) throws(TPMError) -> SecretBytes {
        try secret(ask(.keyAgreement, [keyBlob, peer]))
    }

    /// Sends one request and reads its answer, connecting again once when the connection was closed; a failure the
    /// service reports is thrown as its TPM error.
    private func ask(_ kind: TPMServiceMessage.Kind, _ fields: [Data] = []) throws(TPMError) -> TPMServiceMessage {
        var request = TPMServiceMessage(kind, fields)
        defer { request.zeroize() }
        requests.add(1, ordering: .relaxed)
        let answer = try connection.withLock { descriptor throws(TPMError) -> TPMServiceMessage in
            do throws(TPMError) {
                return try Self.exchange(request, on: descriptor, path: path)
            } catch  where error.code == Self.connectionLost {
                close(descriptor)
                descriptor = try Self.connect(path)
                let hello = try Self.exchange(TPMServiceMessage(.hello), on: descriptor, path: path)
                guard hello.fields.count == 2, StorageRootKey(x: hello.fields[0], y: hello.fields[1]) == storageRootKey else {
                    throw TPMError(code: Self.connectionLost, reason: "cofferd's TPM service at \(path) now answers for another TPM")
                }
                return try Self.exchange(request, on: descriptor, path: path)
            }
        }
        if let failure = answer.failure { throw failure }
        return answer
    }

    private func bytes(_ answer: TPMServiceMessage) throws(TPMError) -> Data {
        guard answer.kind == .bytes, answer.fields.count == 1 else { throw Self.unexpected(path) }
        return answer.fields[0]
    }

    private func secret(_ answer: TPMServiceMessage) throws(TPMError) -> SecretBytes {
        var answer = answer
        defer { answer.zeroize() }
        guard answer.kind == .bytes, answer.fields.count == 1 else { throw Self.unexpected(path) }
        return SecretBytes(copying: answer.fields[0])
    }

    /// Coffer's code for a service that cannot be reached or closed the connection.
    static let connectionLost: UInt32 = 0xC0FF_0005

    private static func unexpected(_ path: String) -> TPMError {
        TPMError(code: 0xC0FF_0004, reason: "cofferd's TPM service at \(path) answered with something unexpected")
    }

    private static func exchange(_ request: TPMServiceMessage, on descriptor: Int32, path: String) throws(TPMError) -> TPMServiceMessage {
        var frame = request.framed()
        defer { frame.zeroize() }
        guard UnixSocket.writeAll(descriptor, frame), let header = UnixSocket.readExactly(descriptor, count: 4) else {
            throw TPMError(code: connectionLost, reason: "cofferd's TPM service at \(path) closed the connection")
        }
        let length = header.reduce(0) { $0 << 8 | Int($1) }
        guard length > 0, length <= TPMServiceMessage.maximumLength, var body = UnixSocket.readExactly(descriptor, count: length) else {
            throw TPMError(code: connectionLost, reason: "cofferd's TPM service at \(path) closed the connection or sent a frame too long")
        }
        defer { body.zeroize() }
        guard let answer = TPMServiceMessage.decode(body) else { throw unexpected(path) }
        return answer
    }

    /// Connects and checks the server: root or the socket's owner, in a folder no one else may write.
    private static func connect(_ path: String) throws(TPMError) -> Int32 {
        let descriptor: Int32
        do {
            descriptor = try UnixSocket.connect(to: path, timeout: .seconds(2))
        } catch {
            throw TPMError(code: connectionLost, reason: "cannot reach cofferd's TPM service at \(path): \(error)")
        }
        if let refusal = ServiceSocketCheck.refusal(path: path, descriptor: descriptor) {
            close(descriptor)
            throw TPMError(code: connectionLost, reason: "refusing the TPM service at \(path): \(refusal)")
        }
        UnixSocket.setTimeouts(descriptor, seconds: 30)
        return descriptor
    }
}
