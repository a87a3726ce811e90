import DaemonProtocol
import Foundation
import KeychainModel
import Keystore
import Query
import Synchronization

extension PasscodeBytes {
    /// A copy of a passcode for one request; the caller zeroizes it when the request is sent.
    public init(_ secret: SecretBytes) { self.init(secret.withUnsafeBytes { Array($0) }) }
}

#if canImport(Glibc)
import Glibc
#endif

/// The keychain behind `cofferd`: requests go over its Unix socket, and the daemon answers with what
/// this program may see.
///
/// One connection is opened on first use and reused (requests are serialised on it). A daemon that
/// cannot be reached, or that drops the connection, answers `errSecNotAvailable` (-25291): never a
/// silent switch to another keychain.
public final class DaemonKeychain: KeychainClient {
    /// The daemon's socket.
    public let socketPath: String
    private let connection = Mutex<Connection?>(nil)

    private struct Connection: ~Copyable {
        let descriptor: Int32
        var decoder = FrameDecoder(limits: .responses)
        let receiver = UnixSocket.Receiver()
        var nextID: UInt64 = 1
        deinit { close(descriptor) }
    }

    /// How long a caller polls for the answer before sleeping: most answers come sooner, and a thread that
    /// never slept needs no wakeup (see ``UnixSocket/Receiver``). A caller is waiting for the answer anyway.
    private static let answerSpin = Duration.microseconds(300)

    /// A client of the daemon listening at `socketPath`.
    public init(socketPath: String) { self.socketPath = socketPath }

    /// Sends one request and returns the daemon's response; nil when the daemon cannot be reached.
    public func send(_ request: Request) -> Response? {
        connection.withLock { (current: inout Connection?) -> Response? in
            for attempt in 0..<2 {
                if current == nil {
                    guard let descriptor = try? UnixSocket.connect(to: socketPath) else { return nil }
                    current = Connection(descriptor: descriptor)
                }
                if let response = exchange(request, on: &current!) { return response }
                current = nil  // the connection broke: reconnect once, for a daemon that restarted
                if attempt == 1 { return nil }
            }
            return nil
        }
    }

    private func exchange(_ request: Request, on connection: inout Connection) -> Response? {
        let id = connection.nextID
        connection.nextID += 1
        guard let frame = try? RequestEnvelope(id: id, request: request).encodedFrame() else { return nil }
        let sent = UnixSocket.writeAll(connection.descriptor, frame)
        guard sent else { return nil }
        while true {
            let payload: Data?
            do { payload = try connection.decoder.nextFrame() } catch { return nil }  // a malformed answer ends the connection
            if let payload {
                guard let envelope = try? ResponseEnvelope(decodingPayload: payload), envelope.id == id else { return nil }
                return envelope.response
            }
            let received = connection.receiver.receive(connection.descriptor, spinning: Self.answerSpin) { bytes -> Bool in
                guard let bytes, !bytes.isEmpty else { return false }
                connection.decoder.append(bytes)
                return true
            }
            guard received else { return nil }
        }
    }

    private func itemCall(_ request: Request) throws(KeychainStatus) -> KeychainValue? {
        switch send(request) {
        case .value(let value)?: return value
        case .status(let status)?: throw status
        case .keystoreError(let error)?: throw error.keystoreError.status
        default: throw .notAvailable
        }
    }

    public func add(_ query: QueryDictionary) throws(KeychainStatus) -> KeychainValue? {
        try itemCall(.add(query))
    }

    public func copyMatching(_ query: QueryDictionary) throws(KeychainStatus) -> KeychainValue? {
        try itemCall(.copyMatching(query))
    }

    public func update(_ query: QueryDictionary, attributesToUpdate: QueryDictionary) throws(KeychainStatus) {
        _ = try itemCall(.update(query: query, attributesToUpdate: attributesToUpdate))
    }

    public func delete(_ query: QueryDictionary) throws(KeychainStatus) {
        _ = try itemCall(.delete(query))
    }

    private func keystoreCall(_ request: Request) throws(KeystoreError) -> Response {
        guard let response = send(request) else { throw .unavailable(reason: "the keychain daemon at \(socketPath) does not answer") }
        if case .keystoreError(let error) = response { throw error.keystoreError }
        return response
    }

    public func lockStatus() throws(KeystoreError) -> KeystoreStatus {
        guard case .lockStatus(let status) = try keystoreCall(.lockStatus) else { throw .unavailable(reason: "unexpected answer from the daemon") }
        return status.keystoreStatus
    }

    public func unlock(passcode: SecretBytes) throws(KeystoreError) {
        var bytes = PasscodeBytes(passcode)
        defer { bytes.zeroize() }
        _ = try keystoreCall(.unlock(passcode: bytes))
    }

    public func lock() throws(KeystoreError) {
        _ = try keystoreCall(.lock)
    }

    public func setPasscode(_ passcode: SecretBytes) throws(KeystoreError) {
        var new = PasscodeBytes(passcode)
        defer { new.zeroize() }
        _ = try keystoreCall(.setPasscode(new: new))
    }

    public func changePasscode(from old: SecretBytes, to new: SecretBytes) throws(KeystoreError) {
        var oldBytes = PasscodeBytes(old), newBytes = PasscodeBytes(new)
        defer { oldBytes.zeroize(); newBytes.zeroize() }
        _ = try keystoreCall(.changePasscode(old: oldBytes, new: newBytes))
    }

    public func removePasscode(current: SecretBytes) throws(KeystoreError) {
        var bytes = PasscodeBytes(current)
        defer { bytes.zeroize() }
        _ = try keystoreCall(.removePasscode(current: bytes))
    }

    public func setEraseAfterFailedAttempts(_ enabled: Bool, passcode: SecretBytes) throws(KeystoreError) {
        var bytes = PasscodeBytes(passcode)
        defer { bytes.zeroize() }
        _ = try keystoreCall(.setEraseAfterFailedAttempts(enabled, passcode: bytes))
    }
}
