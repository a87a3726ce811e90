import Foundation

/// git's configured credential helpers, read with git itself (`git config --get-all credential.helper`).
enum GitConfiguration {
    /// The helpers; empty when none is set, nil when git is not installed.
    static func credentialHelpers(environment: [String: String]) -> [String]? {
        guard let git = SpawnedExecutable.onPath("git", environment: environment) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: git)
        process.arguments = ["config", "--get-all", "credential.helper"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
