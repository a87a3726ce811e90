/// One `--env NAME=REF` or `--file NAME=REF` of `coffer run`: the variable the command gets, and the item it names.
struct SecretBinding: Equatable {
    /// Where the secret goes: into the variable itself, or into a file in memory whose path the variable holds.
    enum Placement: Equatable {
        case environment, file
    }

    let name: String
    let reference: SecretReference
    let placement: Placement

    /// The option as written, to name it in messages (`--env TOKEN`).
    var option: String { (placement == .environment ? "--env " : "--file ") + name }

    /// Parses `NAME=REF`.
    init(parsing text: String, placement: Placement) throws(CLIFailure) {
        let option = placement == .environment ? "--env" : "--file"
        guard let equals = text.firstIndex(of: "=") else {
            throw CLIFailure("run: \(option) \(text): write NAME=REF, such as TOKEN=coffer://generic/api.example/deploy", exitCode: 64)
        }
        let name = String(text[..<equals])
        guard Self.isVariableName(name) else {
            throw CLIFailure(
                "run: \(option) \(text): \(name.isEmpty ? "the name is empty" : "\(name) is not a variable name") (letters, digits and _, not starting with a digit)",
                exitCode: 64)
        }
        self.name = name
        self.placement = placement
        reference = try SecretReference(parsing: String(text[text.index(after: equals)...]))
    }

    private static func isVariableName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}
