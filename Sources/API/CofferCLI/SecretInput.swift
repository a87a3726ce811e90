import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// Reads a secret given on standard input when it is not a terminal (`coffer add-… -w` at the end of a
/// command line, fed by a pipe or a file): every byte up to end of input, with exactly one trailing line
/// ending (`"\n"` or `"\r\n"`) dropped, so a PEM key or any other multi-line secret is kept whole and
/// `echo secret |` stores `secret`.
///
/// The bytes are held in storage that is zeroized when it grows and when the read ends; the secret is
/// never echoed, logged or placed in an error.
enum SecretInput {
    /// Why the secret could not be read.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// End of input before any byte.
        case empty(what: String)
        /// More than `limit` bytes (after the trailing line ending is dropped).
        case tooLarge(what: String, limit: Int)
        /// `read` failed.
        case unreadable(what: String, reason: String)

        var description: String {
            switch self {
            case .empty(let what): "no \(what) on standard input"
            case .tooLarge(let what, let limit):
                "the \(what) on standard input is longer than \(limit >> 20) MiB, the largest value a keychain item holds; nothing was written"
            case .unreadable(let what, let reason): "cannot read the \(what) from standard input: \(reason)"
            }
        }
    }

    /// Reads `descriptor` to end of input and returns the bytes without one trailing `"\n"` or `"\r\n"`.
    /// Refuses more than `limit` bytes of secret, reading at most `limit + 2` bytes (the secret and its
    /// line ending), so an endless input is not read to its end.
    static func readToEnd(from descriptor: Int32, limit: Int, what: String) throws(Failure) -> SecretBytes {
        var buffer = Buffer()
        defer { buffer.release() }
        let readLimit = limit + 2
        while buffer.count < readLimit {
            buffer.reserve(Swift.min(Swift.max(buffer.count * 2, 4096), readLimit))
            let received = buffer.append { pointer, room in read(descriptor, pointer, room) }
            if received < 0 {
                if errno == EINTR { continue }
                throw .unreadable(what: what, reason: String(cString: strerror(errno)))
            }
            if received == 0 { break }
        }
        guard buffer.count > 0 else { throw .empty(what: what) }
        var length = buffer.count
        if buffer.byte(at: length - 1) == UInt8(ascii: "\n") {
            length -= 1
            if length > 0, buffer.byte(at: length - 1) == UInt8(ascii: "\r") { length -= 1 }
        }
        guard length <= limit else { throw .tooLarge(what: what, limit: limit) }
        return buffer.secret(count: length)
    }

    /// A growable byte buffer that zeroizes every allocation it gives up.
    private struct Buffer {
        private var storage = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        private(set) var count = 0

        /// Grows the storage to hold at least `capacity` bytes.
        mutating func reserve(_ capacity: Int) {
            guard capacity > storage.count else { return }
            let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
            if count > 0, let source = storage.baseAddress { larger.baseAddress!.copyMemory(from: source, byteCount: count) }
            release()
            storage = larger
        }

        /// Calls `body` with the free space; a positive result is the number of bytes it wrote.
        mutating func append(_ body: (UnsafeMutableRawPointer, Int) -> Int) -> Int {
            let received = body(storage.baseAddress! + count, storage.count - count)
            if received > 0 { count += received }
            return received
        }

        func byte(at index: Int) -> UInt8 { storage[index] }

        /// The first `length` bytes, copied into zeroizing storage.
        func secret(count length: Int) -> SecretBytes {
            SecretBytes(copying: UnsafeRawBufferPointer(rebasing: storage[0..<length]))
        }

        /// Zeroizes and frees the storage (the count is kept until the next ``reserve(_:)``).
        mutating func release() {
            guard storage.baseAddress != nil else { return }
            storage.zeroize()
            storage.deallocate()
            storage = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        }
    }
}
