import CCofferSystem
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension UnixSocket {
    /// Writes all of `bytes`; false when the peer is gone or the write timed out (a peer that went away raises no
    /// `SIGPIPE`).
    public static func writeAll(_ descriptor: Int32, _ bytes: some ContiguousBytes) -> Bool {
        send(descriptor, bytes) == .complete
    }

    /// How much of a ``send(_:_:)`` reached the socket.
    public enum SendOutcome: Sendable, Equatable {
        /// Every byte.
        case complete
        /// Not one byte: the peer is gone (or the write timed out) before anything was written.
        case nothing
        /// Some bytes, not all: the peer may have seen part of the message.
        case partial
    }

    /// Writes all of `bytes`, saying how much was written when the peer goes away.
    public static func send(_ descriptor: Int32, _ bytes: some ContiguousBytes) -> SendOutcome {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0 {
                    if errno == EINTR { continue }
                    return offset == 0 ? .nothing : .partial
                }
                offset += written
            }
            return .complete
        }
    }

    /// Reads exactly `count` bytes into a buffer of their own; nil at the end of the stream or on an error (the bytes
    /// read so far are cleared: they may be part of a secret).
    public static func readExactly(_ descriptor: Int32, count: Int) -> Data? {
        var buffer = Data(count: count)
        let complete = buffer.withUnsafeMutableBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return count == 0 }
            var filled = 0
            while filled < count {
                let got = recv(descriptor, base + filled, count - filled, 0)
                if got > 0 {
                    filled += got
                } else if got < 0, errno == EINTR {
                    continue
                } else {
                    coffer_secure_zero(base, filled)
                    return false
                }
            }
            return true
        }
        return complete ? buffer : nil
    }
}
