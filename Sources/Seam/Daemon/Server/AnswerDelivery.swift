import Foundation
import NIOCore

/// Delivers one connection's outcomes from the thread that answered: writes answers through the
/// ``WorkerSocket`` (handing to the event loop what the socket does not take), and wakes the loop only
/// to close the connection or to write such a remainder.
struct AnswerDelivery: Sendable {
    /// The server's shared state.
    let server: ServerContext
    /// The connection's socket.
    let writer: WorkerSocket
    /// Where the connection's idle timer learns of answers.
    let activity: ConnectionActivity
    /// The caller's uid, whose bytes in flight the answers hold.
    let uid: UInt32
    /// The connection's handler, on its event loop.
    let loop: NIOLoopBound<ConnectionHandler>

    /// Writes an answer, or has the loop close the connection; from any thread.
    func deliver(_ outcome: RequestOutcome) {
        defer { activity.answered() }
        switch outcome {
        case .answer(var frame, let reserved):
            let (server, uid, loop) = (server, uid, loop)
            let written = frame.withUnsafeBytes { bytes in
                writer.write(bytes) { rest in
                    var remainder = server.allocator.buffer(capacity: rest.count)
                    remainder.writeBytes(rest)
                    let buffer = remainder
                    server.loopHandOff.execute(on: loop.eventLoop) { loop.value.writeHandedOff(buffer, reserved: reserved, uid: uid) }
                }
            }
            frame.resetBytes(in: 0..<frame.count)
            switch written {
            case .written:
                server.bytes.release(reserved, for: uid)
            case .handedOff:
                break
            case .failed:
                server.bytes.release(reserved, for: uid)
                server.loopHandOff.execute(on: loop.eventLoop) { loop.value.closeAfterAnswer(malformed: nil, uid: uid) }
            }
        case .dropped:
            break
        case .malformed(let reason):
            let (uid, loop) = (uid, loop)
            server.loopHandOff.execute(on: loop.eventLoop) { loop.value.closeAfterAnswer(malformed: reason, uid: uid) }
        }
    }
}
