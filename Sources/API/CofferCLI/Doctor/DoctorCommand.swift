import ArgumentParser
import Foundation
import KeychainClient
import KeychainModel

/// `coffer doctor`: what this shell's keychain setup is, and the fix for each part that is wrong.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check which keychain this shell uses and whether the daemon, prompt agent, Secret Service, SSH agent and helpers are set up.",
        discussion: "Each line says what was found; a problem is followed by its fix. Exit status 1 when there is a problem.")

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let findings = DoctorChecks(environment: environment).all()
        for finding in findings {
            print("\(finding.isProblem ? "problem" : "ok     ") \(finding.area): \(finding.text)")
            if let fix = finding.fix { print("        fix: \(fix)") }
        }
        if findings.contains(where: \.isProblem) { throw ExitCode(1) }
    }
}

/// One line of `coffer doctor`.
struct DoctorFinding: Equatable {
    /// What was checked: `keychain`, `passcode`, `prompt agent`…
    var area: String
    /// What was found.
    var text: String
    /// What to do, for a problem.
    var fix: String?

    var isProblem: Bool { fix != nil }
}
