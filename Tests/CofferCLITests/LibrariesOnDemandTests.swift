import Foundation
import Testing

/// libcrypto and libsystemd are loaded when a command first needs them, not at every start: a start that needs
/// neither (help, a lookup through cofferd) binds none of their symbols, and a command that does need one (an RSA
/// key, a signature with it; D-Bus, which the Secret Service tests run) loads it then and works.
@Suite("coffer: libcrypto and libsystemd loaded on first use", .timeLimit(.minutes(10)))
struct LibrariesOnDemandTests {
    /// The libraries the dynamic loader opened for a run of `coffer arguments…` (`LD_DEBUG=libs`), by file name.
    private func loadedLibraries(_ runner: CLIRunner, _ arguments: [String]) throws -> (CLIRunner.Outcome, [String]) {
        let outcome = try runner.run(arguments, environment: ["LD_DEBUG": "libs"])
        let loaded = outcome.standardError.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "calling init: ") else { return nil }
            return URL(fileURLWithPath: String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)).lastPathComponent
        }
        return (outcome, loaded)
    }

    @Test func aStartThatNeedsNeitherLoadsNeither() throws {
        let runner = CLIRunner()
        let (outcome, loaded) = try loadedLibraries(runner, ["--help"])
        #expect(outcome.status == 0)
        #expect(loaded.contains { $0.hasPrefix("libc.so") }, "LD_DEBUG reported the libraries: \(loaded)")
        #expect(!loaded.contains { $0.hasPrefix("libcrypto") }, "loaded: \(loaded)")
        // Nor the libraries libsystemd brings.
        for library in ["libsystemd", "libgcrypt", "libgpg-error", "libzstd", "liblzma", "liblz4", "libcap"] {
            #expect(!loaded.contains { $0.hasPrefix(library) }, "\(library) loaded: \(loaded)")
        }
    }

    @Test func aCommandThatNeedsLibcryptoLoadsItAndWorks() throws {
        let runner = CLIRunner()
        defer { try? FileManager.default.removeItem(at: runner.home.deletingLastPathComponent()) }
        let (created, loaded) = try loadedLibraries(runner, ["create-key", "-t", "rsa", "-s", "2048", "--tag", "on-demand"])
        #expect(created.status == 0, "\(created.standardError.suffix(400))")
        #expect(loaded.contains { $0.hasPrefix("libcrypto") }, "loaded: \(loaded)")
    }
}
