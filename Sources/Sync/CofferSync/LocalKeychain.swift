import ArgumentParser
import Engine
import Foundation
import KeychainModel
import KeychainOperations
import Keystore
import Prompting
import SyncClient

#if canImport(Glibc)
import Glibc
#endif

/// The keychain `coffer sync` works on: the one the environment selects (`COFFER_HOME`, else the default folder),
/// opened in this process, as the embedded keychain opens it. A keychain with a passcode is unlocked with the
/// person's passcode when a command needs its keys.
enum LocalKeychain {
    /// Sync over the environment's keychain.
    static func sync(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> KeychainSync {
        if try DaemonSync.client(environment: environment) != nil {
            throw CommandFailure(
                "the environment selects cofferd's keychain (COFFER_SOCKET or the system daemon): through it, `coffer sync status` and `coffer sync now` work; this command needs the keychain's folder (set COFFER_HOME to it)"
            )
        }
        let folder = KeychainFolder.fromEnvironment(environment)
        let engine: KeychainEngine
        do {
            engine = try KeychainEngine.openExplaining(folder: folder)
        } catch {
            throw CommandFailure("cannot open the keychain in \(folder.url.path): \(error.reason ?? "\(error.status.code)")")
        }
        return KeychainSync(engine: engine)
    }

    /// Records `change` of the account's devices in the keychain's audit journal, as made by this program (cofferd
    /// records the changes made through it itself). A record that cannot be written is said, and the change stands.
    static func record(_ change: SyncDeviceChange, in sync: KeychainSync) {
        do {
            try sync.engine.appendAuditRecord(AuditRecord.syncDeviceChange(change, caller: .thisProcess, status: 0).encoded())
        } catch {
            FileHandle.standardError.write(Data("coffer: the audit journal did not record the change: \(error)\n".utf8))
        }
    }

    /// Unlocks the keychain with the person's passcode when it has one and is locked; with `always`, asks even when
    /// it is unlocked (approving a device is the owner's decision).
    static func authenticate(_ sync: KeychainSync, reason: String, always: Bool = false) throws {
        let keystore = sync.keystore
        guard keystore.isPasscodeSet, always || keystore.lockState != .unlocked else { return }
        try withPasscode(reason: reason) { passcode in try keystore.unlock(passcode: passcode) }
    }

    /// Asks the person for the keychain passcode (at most three times) until `check` accepts one.
    static func withPasscode(reason: String, _ check: (SecretBytes) throws -> Void) throws {
        guard let prompter = PasscodePrompter.standard(environment: ProcessInfo.processInfo.environment) else {
            throw CommandFailure("the keychain has a passcode and there is no terminal or pinentry to ask for it")
        }
        var lastFailure: String?
        for _ in 0..<3 {
            let passcode: SecretBytes
            do {
                passcode = try prompter.askPasscode(
                    PasscodeQuestion(title: "Coffer", description: reason, prompt: "Keychain passcode:", error: lastFailure, timeout: nil))
            } catch {
                throw CommandFailure("no passcode: \(error)")
            }
            do {
                try check(passcode)
                return
            } catch {
                lastFailure = "\(error)"
            }
        }
        throw CommandFailure("wrong passcode: \(lastFailure ?? "")")
    }

    /// A progress line on standard error while a sync runs, when standard error is a terminal (nil otherwise): the
    /// counts so far, rewritten in place; ``endProgress(_:)`` ends the line.
    static var progressLine: (@Sendable (SyncReport) -> Void)? {
        guard isatty(2) == 1 else { return nil }
        return { report in
            FileHandle.standardError.write(Data("\rsyncing: \(report.received) received, \(report.applied) applied, \(report.sent) sent ".utf8))
        }
    }

    /// Ends the progress line, if one was shown.
    static func endProgress(_ shown: Bool) {
        if shown { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    /// This machine's name, the default name of a device.
    static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "this machine" }
        return String(cString: buffer)
    }
}

/// A command that failed for a reason the person can act on (printed as `Error: …`, exit status 1, no usage).
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
