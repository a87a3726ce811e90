import Foundation
import Testing
import TestProcesses

/// Every executable answers `--help` and `--version` by itself: without reading input, touching the keychain or the bus.
@Suite("--help and --version for every executable", .timeLimit(.minutes(10)))
struct HelpAndVersionTests {
    @Test(arguments: ["coffer", "cofferd", "coffer-secret-service", "git-credential-coffer", "docker-credential-coffer"])
    func versionNamesTheRelease(executable: String) throws {
        let ran = try ChildProcess.run([HelperRunner.executable(executable), "--version"], environment: ["PATH": "/usr/bin:/bin"], timeout: .seconds(30))
        #expect(ran.status == 0, "\(ran.errorText)")
        #expect(ran.outputText.hasPrefix(executable == "coffer" || executable == "cofferd" ? "\(executable) " : "\(executable) (coffer) "))
        #expect(ran.outputText.contains("0.1.0"))
    }

    @Test(arguments: ["coffer", "cofferd", "coffer-secret-service", "git-credential-coffer", "docker-credential-coffer"])
    func helpSaysHowToUseIt(executable: String) throws {
        // No session bus and no keychain in the environment: help must not need either.
        let ran = try ChildProcess.run(
            [HelperRunner.executable(executable), "--help"], environment: ["PATH": "/usr/bin:/bin", "COFFER_HOME": "/nonexistent/coffer-help"],
            timeout: .seconds(30))
        #expect(ran.status == 0, "\(ran.errorText)")
        #expect(ran.outputText.lowercased().contains("usage"), "\(ran.outputText)")
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent/coffer-help"))
    }

    @Test func helpPlaceholdersNameTheirValues() throws {
        let ran = try ChildProcess.run([HelperRunner.executable("coffer"), "add-generic-password", "--help"], timeout: .seconds(30))
        #expect(ran.outputText.contains("-s <service>"))
        #expect(ran.outputText.contains("-a <account>"))
        #expect(!ran.outputText.contains("<s>"))
        let file = try ChildProcess.run([HelperRunner.executable("coffer"), "file", "protect", "--help"], timeout: .seconds(30))
        #expect(!file.outputText.contains("FoundationEssentials"))
        #expect(!file.outputText.contains("rawValue"))
    }
}
