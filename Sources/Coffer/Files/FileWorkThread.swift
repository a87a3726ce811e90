import Foundation

/// File work (reading, encrypting and writing a whole file) run on a thread of its own while the calling task
/// is suspended, so the cooperative pool never blocks on the disk or the keychain.
enum FileWorkThread {
    /// The name the thread carries (seen in `top -H`).
    static let name = "coffer-files"

    /// The result of `work`, run on a new thread.
    static func run<Value: Sendable>(
        _ work: @escaping @Sendable () throws(ProtectedFileError) -> Value
    ) async throws(ProtectedFileError) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, ProtectedFileError>, Never>) in
            let thread = Thread {
                do throws(ProtectedFileError) {
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
