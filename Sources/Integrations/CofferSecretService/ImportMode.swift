import CredentialHelperSupport
import Foundation
import KeychainClient
import KeychainModel
import SecretService

#if canImport(Glibc)
import Glibc
#endif

/// `coffer-secret-service --import [--for PATH]`: copies every item of the Secret Service provider running on
/// the session bus into this provider's keychain (``SecretServiceImport``), with progress on standard error
/// when it is a terminal, a summary at the end, and status 1 when something could not be copied (2: the
/// command line is wrong). This executable makes the copies because with cofferd they belong to its access
/// group, which `coffer` cannot write.
enum ImportMode {
    /// The usage line.
    static let usage = "usage: coffer-secret-service --import [--for PROGRAM-PATH]"

    /// Whether `arguments` (without the program name) ask for an import.
    static func isRequested(_ arguments: [String]) -> Bool { arguments.first == "--import" }

    /// Runs the import the arguments describe and exits.
    static func run(_ arguments: [String], environment: [String: String]) -> Never {
        let owner: SecretServiceImport.Owner
        switch parseOwner(Array(arguments.dropFirst())) {
        case .success(let parsed): owner = parsed
        case .failure(let problem): fail("\(problem.text)\n\(usage)", status: 2)
        }
        let client = HelperKeychain.connect(environment: environment)
        if !isUnlocked(client) {
            guard ProviderUnlocker.make(client: client, environment: environment).unlock() else {
                fail("the keychain is locked: unlock it (coffer unlock) and run the import again", status: 1)
            }
        }
        let onTerminal = isatty(STDERR_FILENO) == 1
        let report: SecretServiceImportReport
        do throws(SecretServiceError) {
            report = try SecretServiceImport(client: client, owner: owner).run { sofar in
                guard onTerminal else { return }
                say("\rcopied \(sofar.copied) of \(sofar.total) (\(sofar.alreadyPresent) already in Coffer, \(sofar.notCopied) not copied)", newline: false)
            }
        } catch {
            if onTerminal { say("") }
            fail(error.description, status: 1)
        }
        if onTerminal && report.total > 0 { say("") }
        for line in report.summary { say("coffer-secret-service: \(line)") }
        exit(report.isComplete ? 0 : 1)
    }

    /// A command-line mistake.
    struct Problem: Error {
        let text: String
    }

    /// The owner `--for PATH` names (the path resolved, as the kernel names a running program), else every program.
    static func parseOwner(_ arguments: [String]) -> Result<SecretServiceImport.Owner, Problem> {
        switch arguments.count {
        case 0:
            return .success(.everyProgram)
        case 2 where arguments[0] == "--for":
            guard let resolved = realpath(arguments[1], nil) else {
                return .failure(Problem(text: "--for: \(arguments[1]): \(String(cString: strerror(errno)))"))
            }
            defer { free(resolved) }
            return .success(.program(path: String(cString: resolved)))
        default:
            return .failure(Problem(text: "unexpected arguments"))
        }
    }

    private static func isUnlocked(_ client: any KeychainClient) -> Bool {
        (try? client.blocking.lockStatus())?.lockState == .unlocked
    }

    private static func say(_ text: String, newline: Bool = true) {
        FileHandle.standardError.write(Data((text + (newline ? "\n" : "")).utf8))
    }

    private static func fail(_ text: String, status: Int32) -> Never {
        say("coffer-secret-service: \(text)")
        exit(status)
    }
}
