import ArgumentParser
import Coffer
import Foundation

/// What the backup commands share: waiting for the Swift API's async calls, and their errors as exit codes.
enum BackupCalls {
    /// Runs `work` and blocks this (main) thread until it ends; the work itself runs on Coffer's own thread.
    static func blocking<Value: Sendable>(_ work: @escaping @Sendable () async throws(BackupError) -> Value) throws -> Value {
        let box = ResultBox<Value>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do throws(BackupError) {
                box.result = .success(try await work())
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return try reporting { () throws(BackupError) in try box.result!.get() }
    }

    /// Runs `body`, turning a ``BackupError`` into a one-line failure: exit 2 for a wrong secret, 3 for a
    /// damaged file, 1 otherwise.
    static func reporting<Value>(_ body: () throws(BackupError) -> Value) throws -> Value {
        do {
            return try body()
        } catch {
            let code: Int32 =
                switch error.kind {
                case .wrongPassword, .wrongKindOfSecret: 2
                case .damaged, .notABackup: 3
                case .keychain, .file: 1
                }
            throw CLIFailure(error.message, exitCode: code)
        }
    }

    private final class ResultBox<Value: Sendable>: @unchecked Sendable {
        // Written by the task before it signals, read by the waiting thread after: the semaphore orders them.
        var result: Result<Value, BackupError>?
    }
}

/// `--policy keep|replace|both`.
struct RestorePolicyArgument: ExpressibleByArgument {
    let policy: RestorePolicy

    init(_ policy: RestorePolicy) { self.policy = policy }

    init?(argument: String) {
        guard let policy = RestorePolicy(rawValue: argument) else { return nil }
        self.policy = policy
    }

    static var allValueStrings: [String] { RestorePolicy.allCases.map(\.rawValue) }

    var defaultValueDescription: String { policy.rawValue }

    static func describe(_ outcome: RestoreConflict.Outcome) -> String {
        switch outcome {
        case .keptExisting: "kept the keychain's item"
        case .replaced: "replaced by the backup's item"
        case .keptBoth: "kept both (the backup's under another account)"
        case .notRestorable: "not restored: a certificate or key cannot be kept twice"
        }
    }

    static func describe(_ file: RestoredFile) -> String {
        switch file.outcome {
        case .restored: "restored as \(FileClassArgument.describe(file.protection)) at \(file.destination)"
        case .keptExisting: "kept the existing file at \(file.destination)"
        case .replaced: "replaced the file at \(file.destination)"
        case .keptBoth: "kept both: restored as \(FileClassArgument.describe(file.protection)) at \(file.destination)"
        }
    }
}

/// Progress of a backup or a restore on standard error, only when it is a terminal.
final class BackupStageDisplay: @unchecked Sendable {
    // Written only from the work thread while the main thread waits.
    private let enabled = isatty(STDERR_FILENO) == 1
    private var lastDrawn = ContinuousClock.now - .seconds(1)
    private var drew = false

    /// Shows `stage`.
    func show(_ stage: BackupStage) {
        guard enabled else { return }
        let text: String
        switch stage {
        case .keychain: text = "keychain: reading or writing items…"
        case .derivingKey: text = "deriving the key from the password…"
        case .file: text = "file…"
        case .staging(let sent, let total): text = "keychain: sending items, part \(sent) of \(total) (\(total > 0 ? sent * 100 / total : 100)%)"
        case .cipher(let done, let total):
            let now = ContinuousClock.now
            guard now - lastDrawn >= .milliseconds(100) || done >= total else { return }
            lastDrawn = now
            text = "encryption: \(done >> 10) of \(total >> 10) KiB (\(total > 0 ? done * 100 / total : 100)%)"
        case .protectedFile(let path, let done, let total):
            let now = ContinuousClock.now
            guard now - lastDrawn >= .milliseconds(100) || done >= total else { return }
            lastDrawn = now
            text = "\(path): \(done >> 10) of \(total >> 10) KiB (\(total > 0 ? done * 100 / total : 100)%)"
        }
        drew = true
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    /// Ends the progress line.
    func finish() {
        guard enabled, drew else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
