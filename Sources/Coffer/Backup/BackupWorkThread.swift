import Foundation

/// A backup's or a restore's work (the KDF, the cipher over the whole file, the file and the keychain's
/// blocking calls) on a thread of its own while the calling task is suspended: never on the cooperative pool.
enum BackupWorkThread {
    /// The result of `work`, run on a new thread named `coffer-backup`.
    static func run<Value: Sendable>(
        _ work: @escaping @Sendable () throws(BackupError) -> Value
    ) async throws(BackupError) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, BackupError>, Never>) in
            let thread = Thread {
                do throws(BackupError) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = "coffer-backup"
            thread.start()
        }
        return try result.get()
    }
}
