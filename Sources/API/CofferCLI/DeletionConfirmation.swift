import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Asking before a deletion the person may not have meant: on a terminal, the question and a `y`/`yes` answer; off a
/// terminal (a script that wrote `--all`), the sentence alone on standard error.
enum DeletionConfirmation {
    /// Says `what` on standard error and, on a terminal, asks; returns whether to go on.
    static func confirm(_ what: String) throws -> Bool {
        guard isatty(STDIN_FILENO) == 1 else {
            FileHandle.standardError.write(Data("coffer: \(what)\n".utf8))
            return true
        }
        FileHandle.standardError.write(Data("coffer: \(what) Delete? [y/N] ".utf8))
        guard let answer = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased() else { return false }
        return answer == "y" || answer == "yes"
    }
}
