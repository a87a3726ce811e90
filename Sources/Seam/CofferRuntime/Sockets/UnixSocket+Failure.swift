import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension UnixSocket {
    /// A failed socket call.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The call (and path) that failed.
        public let call: String
        /// The `errno` it left.
        public let code: Int32

        /// A failure of `call` (with what it worked on) with `errno` `code`.
        public init(_ call: String, _ code: Int32) {
            self.call = call
            self.code = code
        }

        public var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }
}
