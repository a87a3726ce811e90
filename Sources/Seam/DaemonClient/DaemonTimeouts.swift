import Foundation
import KeychainOperations

/// How long a ``DaemonKeychain`` waits for the daemon before it answers `errSecNotAvailable` (-25291)
/// with a reason saying what did not happen.
///
/// A daemon that is stopped (`SIGSTOP`, a debugger), hung, or whose listening backlog is full must not
/// hang its clients:
/// - ``connect``: for the connection to be accepted (default 5 s). Nothing was sent, so nothing happened.
/// - ``reply``: for the answer to a request once it is being sent (default 30 s): far above any request's
///   work (a passcode KDF takes about 150 ms, a large write a few milliseconds plus `fsync`). The request
///   may or may not have taken effect, and the reason says so.
/// - ``personReply``: the reply time-out of requests that may wait for a person
///   (`Request.Kind.mayWaitForPerson`: unlocking, passcode changes, registry edits), default 10 minutes,
///   so a prompt is not cut short while someone types.
public struct DaemonTimeouts: Sendable, Equatable {
    /// The longest wait for the daemon to accept a connection.
    public var connect: Duration
    /// The longest wait for the answer to a request that does not wait for a person.
    public var reply: Duration
    /// The longest wait for the answer to a request that may wait for a person.
    public var personReply: Duration

    /// Time-outs of your choosing (tests use short ones).
    public init(connect: Duration, reply: Duration, personReply: Duration) {
        self.connect = connect
        self.reply = reply
        self.personReply = personReply
    }

    /// Connect 5 s, reply 30 s, 10 minutes for requests that may wait for a person.
    public static let standard = DaemonTimeouts(connect: .seconds(5), reply: .seconds(30), personReply: .seconds(600))

    /// The reply time-out of a request of `kind`; nil for the prompt agent's standing request
    /// (`Request.Kind.awaitPrompt`), which is answered only when a program asks the person something.
    public func reply(for kind: Request.Kind) -> Duration? {
        if kind == .awaitPrompt { return nil }
        return kind.mayWaitForPerson ? personReply : reply
    }
}

extension Duration {
    /// The duration in whole seconds for messages ("5 s"), or milliseconds below a second.
    var spoken: String {
        let (seconds, attoseconds) = components
        if seconds >= 1 { return attoseconds == 0 ? "\(seconds) s" : String(format: "%.1f s", Double(seconds) + Double(attoseconds) / 1e18) }
        return "\(attoseconds / 1_000_000_000_000_000) ms"
    }
}
