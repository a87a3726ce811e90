import DaemonProtocol
import CofferDiagnostics
import Foundation
import KeychainClient
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// One client connection: who it is (fixed at connect) and the loop that answers its frames.
final class ConnectionSession {
    private let connection: Int32
    private let peer: PeerCredentials
    private let handler: RequestHandler
    private let logger = DiagnosticsLevel.logger(label: "coffer.daemon")
    private var decoder = FrameDecoder(limits: .requests)

    /// Identifies the peer: its uid selects the keychain, its executable the access groups.
    init(connection: Int32, keychains: UserKeychains, identifier: ExecutableIdentifier) throws {
        self.connection = connection
        peer = try PeerCredentials.of(socket: connection)
        do {
            let executable = try identifier.identify(peer)
            let keychain = try keychains.keychain(for: peer.uid)
            handler = RequestHandler(keychain: keychain, executable: executable)
        } catch {
            peer.close()
            throw error
        }
    }

    /// Answers frames until the peer closes, sends a malformed frame, or `beginRequest` says stop.
    /// Between requests the thread polls briefly for the next one while `mayPoll` says the daemon has
    /// nothing else to do (so polling never takes a core from a request being answered).
    func run(beginRequest: () -> Bool, endRequest: () -> Void, mayPoll: () -> Bool) {
        let receiver = UnixSocket.Receiver()
        while receiver.receive(connection, spinning: Self.nextRequestSpin, while: mayPoll, { bytes -> Bool in
            guard let bytes, !bytes.isEmpty else { return false }
            decoder.append(bytes)
            return true
        }) {
            while true {
                let payload: Data
                do {
                    guard let next = try decoder.nextFrame() else { break }
                    payload = next
                } catch {
                    logger.notice("closing a connection after a malformed frame", metadata: ["reason": "\(error)", "pid": "\(peer.pid)"])
                    return
                }
                let envelope: RequestEnvelope
                do {
                    envelope = try RequestEnvelope(decodingPayload: payload)
                } catch {
                    logger.notice("closing a connection after a malformed request", metadata: ["reason": "\(error)", "pid": "\(peer.pid)"])
                    return
                }
                guard beginRequest() else { return }
                let response = handler.handle(envelope.request)
                endRequest()
                guard let frame = try? ResponseEnvelope(id: envelope.id, response: response).encodedFrame(),
                      UnixSocket.writeAll(connection, frame) else { return }
            }
        }
        try? decoder.finish()
    }

    func close() { peer.close() }

    /// How long the thread polls for a client's next request before sleeping: a client making several
    /// calls in a row sends the next one soon, and a thread that never slept needs no wakeup (see
    /// ``UnixSocket/Receiver``). Bounded, so an idle connection costs no CPU.
    private static let nextRequestSpin = Duration.microseconds(200)
}
