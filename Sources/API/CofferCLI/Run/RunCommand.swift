import ArgumentParser
import Foundation
import KeychainClient
import KeychainModel
import Query

#if canImport(Glibc)
import Glibc
#endif

/// `coffer run --env NAME=REF --file NAME=REF -- COMMAND…`: starts a command with secrets from the keychain in its
/// environment, or in files that live only in memory, and nowhere else: not on a disk, not on a command line.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a command with secrets from the keychain in its environment or in files held in memory.",
        discussion: """
            Each --env NAME=REF sets the variable NAME to the secret of the item REF names; each --file NAME=REF puts \
            the secret in a file that lives only in memory (memfd, sealed) and sets NAME to its path, /dev/fd/N, which \
            the command and the programs it starts read while they keep that descriptor open. REF is \
            coffer://generic/SERVICE[/ACCOUNT], coffer://internet/SERVER[/ACCOUNT] or coffer://ref/HEX (a persistent \
            reference, as `coffer audit show` prints it); components are percent-encoded. Every secret is read \
            first, as `find-generic-password -w` reads it (an item that needs the passcode or a finger asks for it, \
            and each read is in the audit journal); a missing item stops here, before the command starts. Then the \
            command takes coffer's place: its exit status and the signals sent to it are its own. Secrets are \
            never on its command line, but a program's environment can be read by the user's other programs (and \
            root) through /proc/PID/environ: prefer --file where the command can read a file.
            """)

    @Option(name: .customLong("env"), help: ArgumentHelp("Set the variable NAME to the item's secret.", valueName: "NAME=REF"))
    var environment: [String] = []
    @Option(name: .customLong("file"), help: ArgumentHelp("Put the item's secret in a file in memory; NAME holds its path.", valueName: "NAME=REF"))
    var files: [String] = []
    @Argument(parsing: .postTerminator, help: ArgumentHelp("The command and its arguments, after --.", valueName: "command"))
    var command: [String] = []

    func validate() throws {
        guard !command.isEmpty else { throw ValidationError("name the command to run after --, such as: coffer run --env TOKEN=REF -- ./deploy") }
        guard !environment.isEmpty || !files.isEmpty else { throw ValidationError("give at least one --env NAME=REF or --file NAME=REF") }
    }

    func run() throws {
        let bindings =
            try environment.map { text throws(CLIFailure) in try SecretBinding(parsing: text, placement: .environment) }
            + files.map { text throws(CLIFailure) in try SecretBinding(parsing: text, placement: .file) }
        var seen: Set<String> = []
        for binding in bindings where !seen.insert(binding.name).inserted {
            throw CLIFailure("run: \(binding.name) is given twice", exitCode: 64)
        }
        let inherited = ProcessInfo.processInfo.environment
        guard let program = Self.executable(command[0], environment: inherited) else {
            throw CLIFailure("run: \(command[0]): command not found", exitCode: 127)
        }
        let client = try ItemCommandSupport.client(command: "run")
        var secrets = try bindings.map { binding in try Self.secret(of: binding, client: client) }
        defer { for index in secrets.indices { secrets[index].resetBytes(in: 0..<secrets[index].count) } }

        var entries: [UnsafeMutablePointer<CChar>?] = []
        for (name, value) in inherited where !seen.contains(name) { entries.append(strdup("\(name)=\(value)")) }
        for (binding, secret) in zip(bindings, secrets) {
            switch binding.placement {
            case .environment:
                guard !secret.contains(0) else {
                    throw CLIFailure("run: \(binding.option): the secret holds a NUL byte, which a variable cannot; use --file \(binding.name)=…")
                }
                entries.append(Self.entry(name: binding.name, value: secret))
            case .file:
                let descriptor = try MemoryFile.holding(secret, name: binding.name)
                entries.append(strdup("\(binding.name)=/dev/fd/\(descriptor)"))
            }
        }
        try ProcessReplacement.replace(with: program, arguments: command, environment: entries, command: "run")
    }

    /// The secret of `binding`'s item, read as `find-generic-password -w` reads it; a failure names the option.
    private static func secret(of binding: SecretBinding, client: any KeychainClient) throws -> Data {
        var query = binding.reference.entries
        query[.string(QueryKey.matchLimit)] = .string(QueryConstant.matchLimitOne)
        query[.string(QueryKey.returnData)] = .bool(true)
        let label = "run: \(binding.option) (\(binding.reference.text))"
        let found = try ItemCommandSupport.run(label) { () throws(KeychainFailure) in try client.blocking.copyMatching(QueryDictionary(query)) }
        guard case .data(let secret)? = found else { throw CLIFailure("\(label): the item has no secret") }
        return secret
    }

    /// `NAME=secret` as C wants it, with the secret's bytes as they are.
    private static func entry(name: String, value: Data) -> UnsafeMutablePointer<CChar>? {
        let prefix = Array("\(name)=".utf8)
        let entry = UnsafeMutablePointer<CChar>.allocate(capacity: prefix.count + value.count + 1)
        prefix.withUnsafeBufferPointer { UnsafeMutableRawPointer(entry).copyMemory(from: $0.baseAddress!, byteCount: prefix.count) }
        value.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { (UnsafeMutableRawPointer(entry) + prefix.count).copyMemory(from: base, byteCount: bytes.count) }
        }
        entry[prefix.count + value.count] = 0
        return entry
    }

    /// The program `name` names: a path when it holds a `/`, else the first executable of that name on the `PATH`.
    private static func executable(_ name: String, environment: [String: String]) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        return SpawnedExecutable.onPath(name, environment: environment)
    }
}
