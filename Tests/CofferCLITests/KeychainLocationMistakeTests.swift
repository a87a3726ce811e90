import Foundation
import KeychainSelection
import Testing

/// A mistyped or unusable `COFFER_HOME` is told by name: a read does not make a new, empty keychain, and a folder that
/// cannot be used says why, without `COFFER_LOG`.
@Suite("coffer with a wrong COFFER_HOME", .timeLimit(.minutes(10)))
struct KeychainLocationMistakeTests {
    @Test func aReadDoesNotMakeAKeychainWhereThereIsNone() throws {
        let cli = CLIRunner()
        let found = try cli.run(["find-generic-password", "-s", "svc"])
        #expect(found.status == 44)
        #expect(found.standardError.contains("there is no keychain at \(cli.home.path): it is made when the first item is added there"))
        let deleted = try cli.run(["delete-generic-password", "-s", "svc"])
        #expect(deleted.status == 44)
        #expect(!FileManager.default.fileExists(atPath: cli.home.path))
        #expect(try cli.run(["add-generic-password", "-s", "svc", "-a", "me", "-w", "pw"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: cli.home.path))
    }

    @Test func aFolderThatIsAFileSaysSo() throws {
        let cli = CLIRunner()
        try FileManager.default.createDirectory(at: cli.home.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: cli.home)
        let added = try cli.run(["add-generic-password", "-s", "svc", "-a", "me", "-w", "pw"])
        #expect(added.status == 53)  // errSecNotAvailable (-25291)
        #expect(added.standardError.contains("errSecNotAvailable (-25291)"))
        #expect(added.standardError.contains(cli.home.path), "\(added.standardError)")
    }
}
