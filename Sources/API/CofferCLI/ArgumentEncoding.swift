/// Checks that every command-line argument is valid UTF-8 before anything reads them.
///
/// `CommandLine.arguments` repairs invalid UTF-8 by replacing each bad sequence with U+FFFD, so two
/// different byte strings (`-s $'\xff'` and `-s $'\xfe'`) would name the same item, and `-U` would
/// overwrite an item the user did not mean. Coffer stores attributes as Unicode strings, as Apple does,
/// so such an argument cannot be represented faithfully and is refused. The raw `argv` is read
/// (`CommandLine.unsafeArgv`), not the repaired strings.
enum ArgumentEncoding {
    /// The index (1 for the first argument after the program name) of the first argument of `argv` that
    /// is not valid UTF-8, or nil when all are.
    static func firstInvalidArgument(count: Int32, arguments argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int? {
        guard count > 1 else { return nil }
        for index in 1..<Int(count) {
            guard let argument = argv[index] else { continue }
            if String(validatingCString: argument) == nil { return index }
        }
        return nil
    }

    /// Refuses the process's command line when an argument is not valid UTF-8. The message names the
    /// argument by position only: its bytes may be a secret (`-w`).
    static func validateProcessArguments() throws {
        guard let index = firstInvalidArgument(count: CommandLine.argc, arguments: CommandLine.unsafeArgv) else { return }
        throw CLIFailure(
            "argument \(index) is not valid UTF-8; keychain names and values are Unicode text, so it is refused rather than altered",
            exitCode: 64)
    }
}
