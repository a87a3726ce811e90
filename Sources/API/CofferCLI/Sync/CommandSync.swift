import ArgumentParser
import Foundation
import KeychainClient
import KeychainSelection

/// An embedded keychain that syncs is synced as its commands run, since no daemon syncs it in the background:
/// before a command reads items (so it sees what the other devices wrote) and after one changes them (so they get
/// it). The run is `coffer-sync now --quiet --no-prompt`; it never fails the command: a run that cannot reach the
/// server is a warning, and what changed waits in the keychain for the next run. A keychain behind cofferd is synced
/// by the daemon, and one that does not sync costs one look at its ledger.
enum CommandSync {
    /// How long a command waits for its sync run before it goes on without it.
    static let waitLimit: Duration = .seconds(20)

    /// Syncs before `command` when it reads items.
    static func before(_ command: any ParsableCommand) {
        if command is any ReadsSynchronizableItems { run(when: "before reading") }
    }

    /// Syncs after `command` when it changed items.
    static func after(_ command: any ParsableCommand) {
        if command is any ChangesSynchronizableItems { run(when: "after the change") }
    }

    /// Runs sync when the keychain is embedded and syncs; warns on standard error when the run fails.
    static func run(when moment: String) {
        guard case .embedded = CLIKeychain.choice, (try? CLIKeychain.shared.blocking.syncState().isSyncing) == true else { return }
        let name = "coffer-sync"
        guard let program = SpawnedExecutable.besideSelf(name) ?? SpawnedExecutable.onPath(name, environment: ProcessInfo.processInfo.environment)
        else { return warn("this keychain syncs, but \(name) is not installed beside coffer or on PATH") }
        switch ChildRun.run(program, [name, "now", "--quiet", "--no-prompt"], within: waitLimit) {
        case .finished(status: 0, _), .finished(status: 75, _):
            // Done, or the keychain is locked with a passcode: `coffer sync now` asks for it.
            return
        case .finished(_, let errors):
            warn("could not sync \(moment): \(errors.isEmpty ? "coffer-sync failed" : errors); `coffer sync now` tries again")
        case .timedOut:
            warn("sync \(moment) took more than \(waitLimit) and was stopped; `coffer sync now` tries again")
        case .notStarted(let reason):
            warn("cannot run \(program): \(reason)")
        }
    }

    private static func warn(_ message: String) {
        FileHandle.standardError.write(Data("coffer: \(message)\n".utf8))
    }
}

/// A command that reads items: an embedded keychain syncs before it runs.
protocol ReadsSynchronizableItems {}
/// A command that changes items: an embedded keychain syncs after it succeeds.
protocol ChangesSynchronizableItems {}

extension FindPassword: ReadsSynchronizableItems {}
extension DumpKeychain: ReadsSynchronizableItems {}
extension FindKeyCommand: ReadsSynchronizableItems {}
extension FindCertificateCommand: ReadsSynchronizableItems {}
extension FindIdentityCommand: ReadsSynchronizableItems {}
extension ExportCommand: ReadsSynchronizableItems {}
extension AddPassword: ChangesSynchronizableItems {}
extension DeletePassword: ChangesSynchronizableItems {}
extension CreateKeyCommand: ChangesSynchronizableItems {}
extension DeleteKeyCommand: ChangesSynchronizableItems {}
extension ImportCommand: ChangesSynchronizableItems {}
extension RestoreCommand: ChangesSynchronizableItems {}
extension ImportSecretServiceCommand: ChangesSynchronizableItems {}
