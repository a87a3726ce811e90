import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A connection's socket as the worker threads use it: they write answers straight to it from the
/// thread that produced them, so that answering wakes neither the event loop nor anyone else (the client
/// reads the answer as soon as it is written), and the worker holding the ``ReadLease`` reads the next
/// requests from it.
///
/// The writer holds its own duplicate of the connection's descriptor, closed only by ``close()`` (when
/// the channel has closed): SwiftNIO may close its descriptor at any moment on the event loop, and a
/// number it closed may already name another file, so a worker never writes to SwiftNIO's.
///
/// The socket is non-blocking. What the socket does not take at once (a large answer, a client slow to
/// read) is handed to the event loop, which writes it through the channel when the socket can take it;
/// until the loop has written every answer handed to it, later answers are handed to it too, so that
/// answers are never interleaved or reordered. The hand-off happens under the writer's lock, so hand-offs
/// reach the loop in the order the answers were written.
final class WorkerSocket: Sendable {
    private struct State {
        /// The duplicate descriptor, or -1 once closed.
        var descriptor: Int32
        /// Answers (or their remainders) handed to the event loop and not yet written or failed.
        var handedOff = 0
    }

    /// What became of an answer.
    enum Outcome: Equatable {
        /// Written whole to the socket.
        case written
        /// Handed, whole or in part, to the event loop (the hand-off closure was called).
        case handedOff
        /// Not written: the connection is closed, or the socket failed (the peer went away).
        case failed
    }

    private let state: Mutex<State>

    /// A writer owning `descriptor` (a duplicate of the connection's socket, non-blocking).
    init(descriptor: Int32) { state = Mutex(State(descriptor: descriptor)) }

    deinit { state.withLock { if $0.descriptor >= 0 { Glibc.close($0.descriptor) } } }

    /// Writes `bytes` to the socket if nothing handed to the event loop is still pending and the socket
    /// takes them; otherwise calls `handOff` (with the lock held) with the bytes not written, for the
    /// loop to write, and the caller must call ``handedOffWriteFinished()`` once the loop is done with them.
    func write(_ bytes: UnsafeRawBufferPointer, handOff: (UnsafeRawBufferPointer) -> Void) -> Outcome {
        state.withLock { state in
            guard state.descriptor >= 0 else { return .failed }
            var offset = 0
            if state.handedOff == 0 {
                while offset < bytes.count {
                    let sent = send(state.descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
                    if sent >= 0 {
                        offset += sent
                    } else if errno == EINTR {
                        continue
                    } else if errno == EAGAIN || errno == EWOULDBLOCK {
                        break
                    } else {
                        return .failed
                    }
                }
                if offset == bytes.count { return .written }
            }
            state.handedOff += 1
            handOff(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            return .handedOff
        }
    }

    /// What a read came to.
    enum Received: Equatable {
        /// This many bytes were read into the buffer.
        case bytes(Int)
        /// Nothing to read now.
        case nothing
        /// The peer closed, the socket failed, or the connection is closed: the loop is to find out.
        case end
    }

    /// Reads what the socket holds, without waiting, into `buffer` (for the worker holding the read lease).
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> Received {
        state.withLock { state in
            guard state.descriptor >= 0 else { return .end }
            while true {
                let count = recv(state.descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
                if count > 0 { return .bytes(count) }
                if count == 0 { return .end }
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK ? .nothing : .end
            }
        }
    }

    /// The event loop has written (or dropped, the channel having closed) an answer handed to it.
    func handedOffWriteFinished() {
        state.withLock { $0.handedOff -= 1 }
    }

    /// Closes the duplicate descriptor; later answers are dropped (``Outcome/failed``). Idempotent.
    func close() {
        state.withLock { state in
            guard state.descriptor >= 0 else { return }
            Glibc.close(state.descriptor)
            state.descriptor = -1
        }
    }
}
