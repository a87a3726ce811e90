import Foundation

/// Work that blocks its thread for a long time, rare enough that a thread per call costs little next to it (an RSA
/// key generated, a backup's KDF and cipher over a whole file, a protected file read and written), run on a new
/// thread of its own while the calling task is suspended: the cooperative pool is never blocked. Work that started
/// runs to its end.
public enum OwnThread {
    /// The result of `work`, run on a new thread named `name` (seen in `top -H` and `ps -L`).
    public static func run<Value: Sendable, Failure: Error>(
        named name: String, _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            let thread = Thread {
                do throws(Failure) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = name
            thread.start()
        }
        return try result.get()
    }
}
