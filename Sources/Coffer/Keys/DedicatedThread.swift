import Foundation

/// Work that blocks its thread for a long time (generating an RSA key: up to a second or more for 4096 bits),
/// run on a thread of its own while the calling task is suspended, so the cooperative pool is never blocked.
///
/// The work is rare and long, so a thread per call costs little next to it. Work that started runs to its end.
enum DedicatedThread {
    /// The name the thread carries (seen in `top -H` and `ps -L`).
    static let name = "coffer-keygen"

    /// The result of `work`, run on a new thread.
    static func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.name = name
            thread.start()
        }
    }
}
