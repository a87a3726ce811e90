import CSystemdBus

#if canImport(Glibc)
import Glibc
#endif

/// A D-Bus call or connection that failed: the error the peer answered with, or the system error sd-bus
/// reported (a timeout, no bus at the address, a lost connection).
struct BusFailure: Error, Sendable, CustomStringConvertible {
    /// The D-Bus error name when the peer (or the bus) answered with one, such as
    /// `org.freedesktop.DBus.Error.ServiceUnknown`.
    let errorName: String?
    /// The error's message, or the system error's text.
    let message: String
    /// The negative errno sd-bus returned.
    let code: Int32

    /// A failure sd-bus reported as the negative errno `code`, with the D-Bus error in `error` when it is set.
    init(code: Int32, error: sd_bus_error? = nil) {
        self.code = code
        if let error, let name = error.name {
            errorName = String(cString: name)
            message = error.message.map { String(cString: $0) } ?? ""
        } else {
            errorName = nil
            message = String(cString: strerror(-code))
        }
    }

    /// Whether the peer answered with the D-Bus error `name`.
    func hasName(_ name: String) -> Bool { errorName == name }

    /// Whether the call ran out of time (sd-bus reports ETIMEDOUT).
    var timedOut: Bool { errorName == nil && code == -ETIMEDOUT }

    var description: String {
        guard let errorName else { return message }
        return message.isEmpty ? errorName : "\(errorName): \(message)"
    }
}
