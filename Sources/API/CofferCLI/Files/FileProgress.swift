import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Progress of a long file operation on standard error, only when it is a terminal and the file is large
/// (8 MiB or more), redrawn at most ten times a second.
final class FileProgress {
    static let threshold = 8 << 20
    private let label: String
    private let total: Int
    private let enabled: Bool
    private var lastDrawn = ContinuousClock.now - .seconds(1)

    init(_ label: String, total: Int) {
        self.label = label
        self.total = total
        enabled = total >= Self.threshold && isatty(STDERR_FILENO) == 1
    }

    /// Reports `done` bytes of `total`.
    func update(_ done: Int) {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard now - lastDrawn >= .milliseconds(100) || done >= total else { return }
        lastDrawn = now
        let percent = total > 0 ? done * 100 / total : 100
        FileHandle.standardError.write(Data("\r\(label): \(done >> 20) of \(total >> 20) MiB (\(percent)%)".utf8))
    }

    /// Ends the progress line.
    func finish() {
        guard enabled else { return }
        update(total)
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
