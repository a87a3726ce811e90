import Foundation

/// Delivers one connection's outcomes from the thread that answered: sends each answer on the
/// connection's socket (what the socket does not take waits there for the watcher to send), and closes
/// the connection after a malformed request or a socket that failed.
struct AnswerDelivery: Sendable {
    /// The server's shared state.
    let server: ServerContext
    /// The connection the answers are for.
    let connection: Connection

    /// Sends an answer, or closes the connection; from any thread.
    func deliver(_ outcome: RequestOutcome) {
        defer { connection.activity.answered() }
        switch outcome {
        case .answer(var frame, let reserved):
            let written = frame.withUnsafeBytes { connection.write($0, reserved: reserved) }
            frame.resetBytes(in: 0..<frame.count)
            if written == .failed { connection.close() }
        case .dropped:
            break
        case .malformed(let reason):
            server.logger.notice(
                "closing a connection after a malformed request",
                metadata: ["reason": "\(reason)", "uid": "\(connection.peer.uid)", "pid": "\(connection.peer.pid)"])
            connection.close()
        }
    }
}
