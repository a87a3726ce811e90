import ArgumentParser
import Foundation
import KeychainModel
import SyncClient

/// `coffer sync now`: one sync run.
struct NowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "now", abstract: "Sync now: send what changed here, apply what changed elsewhere.")

    @Flag(help: "Print the result as JSON.") var json = false
    @Flag(help: "Print nothing when the run goes well (what `coffer` runs around its commands).") var quiet = false
    @Flag(name: .customLong("no-prompt"), help: "Never ask for the passcode: exit with status 75 when the keychain needs it.")
    var noPrompt = false

    func run() async throws {
        if let daemon = try DaemonSync.client() {
            return try show(try await DaemonSync.runNow(daemon))
        }
        let sync = try LocalKeychain.sync()
        if noPrompt, sync.keystore.isPasscodeSet, sync.keystore.lockState != .unlocked {
            FileHandle.standardError.write(Data("coffer sync: the keychain is locked; `coffer sync now` asks for its passcode\n".utf8))
            throw ExitCode(75)
        }
        try LocalKeychain.authenticate(sync, reason: "Unlock the keychain to sync it.")
        let progress = quiet ? nil : LocalKeychain.progressLine
        let report = try await sync.syncNow(progress: progress)
        LocalKeychain.endProgress(progress != nil)
        try show(report)
    }

    private func show(_ report: SyncReport) throws {
        if json { return try printJSON(report) }
        if quiet {
            if report.refused > 0 { throw CommandFailure("\(report.refused) record(s) REFUSED (changed or rolled back by the server)") }
            return
        }
        print("sent \(report.sent), received \(report.received), applied \(report.applied)", terminator: "")
        if report.conflicts > 0 { print(", \(report.conflicts) conflict(s) settled (coffer sync status --conflicts)", terminator: "") }
        if report.refused > 0 { print(", \(report.refused) record(s) REFUSED (changed or rolled back by the server)", terminator: "") }
        if report.waiting > 0 { print(", \(report.waiting) waiting for the keychain to be unlocked", terminator: "") }
        print("")
        if report.refused > 0 { throw ExitCode(3) }
    }
}
