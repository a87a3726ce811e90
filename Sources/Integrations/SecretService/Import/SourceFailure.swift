#if canImport(Glibc)
import Glibc
#endif

/// Why a call to the provider being imported from failed: the D-Bus error it answered, or why the call could
/// not be made. The text never holds a secret, an attribute or a label.
struct SourceFailure: Error, Sendable, CustomStringConvertible {
    /// The D-Bus error the provider answered (`org.freedesktop.Secret.Error.IsLocked`), if it answered one.
    let errorName: String?
    /// What went wrong, for people.
    let description: String

    /// A failure described by `description`, with the D-Bus error `errorName` when there was one.
    init(_ description: String, errorName: String? = nil) {
        self.description = description
        self.errorName = errorName
    }

    /// The failure of the call `member`: the error the provider answered, else sd-bus's `result` (a negative errno).
    static func call(_ member: String, errorName: String?, result: Int32) -> SourceFailure {
        if let errorName { return SourceFailure("\(member) was refused (\(errorName))", errorName: errorName) }
        return SourceFailure("\(member) failed: \(String(cString: strerror(-result)))")
    }
}
