import ArgumentParser
import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations

/// `coffer audit show|verify`: the keychain's record of who read, wrote and deleted what, for its owner.
struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Show or verify the keychain's audit journal: which program read, wrote or deleted which item.",
        discussion: """
            Every item written or deleted and every search that returned a secret is recorded with the time, the \
            program as the kernel identified it, the items' persistent references and the status; never a secret \
            or an attribute's value. Records are sealed and hash-chained in the keychain folder's audit/ folder. \
            Reading them needs the keychain passcode when one is set. A record that cannot be written (a full \
            disk) is logged and the call goes on, unless `coffer audit require on` makes the keychain refuse the \
            secret reads and key uses it cannot record.
            """,
        subcommands: [Show.self, Verify.self, Require.self])

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the journal's records, oldest first.")

        @Option(help: "Only records from this time on: an ISO 8601 date (2026-11-29T10:00:00Z) or a span ago (90s, 15m, 2h, 7d).")
        var since: String?
        @Option(help: "Only records of programs whose path contains this text.")
        var program: String?
        @Option(help: "Only records of this item: its persistent reference in hexadecimal.")
        var item: String?
        @Flag(help: "Keep printing records as they are written (Control-C ends).")
        var follow = false
        @Flag(help: "One JSON object per record.")
        var json = false

        func run() throws {
            let filter = try AuditFilter(since: since, program: program, item: item)
            let client = CLIKeychain.shared
            let passcode = try CLIFailure.reporting { try KeystorePasscode.ifSet(client, prompt: "Keychain passcode") }
            var after: UInt64 = 0
            while true {
                let page = try AuditPages.read(client, passcode: passcode, after: after)
                for record in page.records where filter.admits(record) { try AuditPrinter.print(record, json: json) }
                after = page.records.last?.sequence ?? after
                if page.hasMore { continue }
                guard follow else { return }
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that no record was changed, removed or reordered; exit status 1 when one was.")

        func run() throws {
            let client = CLIKeychain.shared
            let passcode = try CLIFailure.reporting { try KeystorePasscode.ifSet(client, prompt: "Keychain passcode") }
            let page = try AuditPages.read(client, passcode: passcode, after: UInt64.max, verify: true)
            switch page.check {
            case .intact(let records, let first, let last, let rotatedAway)?:
                let span = records == 0 ? "no records yet" : "\(records) records, #\(first)–#\(last)"
                print("intact: \(span)" + (rotatedAway > 0 ? "; \(rotatedAway) older records rotated away" : ""))
            case .damaged(let file, let sequence, let reason)?:
                throw CLIFailure("audit journal damaged: \(reason) (\(file)\(sequence.map { ", record #\($0)" } ?? ""))")
            case nil:
                throw CLIFailure("the keychain did not verify its audit journal")
            }
        }
    }
}

extension AuditCommand {
    /// `coffer audit require [on|off]`: whether secret reads the journal cannot record are refused.
    struct Require: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Refuse (on) or serve (off, the default) secret reads and key uses the journal cannot record; without an argument, say which.")

        enum Setting: String, ExpressibleByArgument, CaseIterable {
            case on, off
        }

        @Argument(help: "on or off.")
        var setting: Setting?

        func run() throws {
            let client = CLIKeychain.shared
            let passcode = try CLIFailure.reporting { try KeystorePasscode.ifSet(client, prompt: "Keychain passcode") }
            let refuses: Bool
            do {
                refuses = try client.blocking.auditSetting(AuditSetting(passcode: passcode, refuseUnrecordedReads: setting.map { $0 == .on }))
            } catch {
                throw CLIFailure("audit: \(error.description)")
            }
            print(
                refuses
                    ? "on: secret reads and key uses the audit journal cannot record are refused (errSecIO)"
                    : "off: secret reads and key uses the audit journal cannot record are served, and the failure is logged")
        }
    }
}

/// One call for one page of records, failures as the command's.
enum AuditPages {
    static func read(_ client: any KeychainClient, passcode: SecretBytes?, after: UInt64, verify: Bool = false) throws -> AuditPage {
        do {
            return try client.blocking.auditRecords(AuditRead(passcode: passcode, after: after, limit: 1000, verify: verify))
        } catch {
            throw CLIFailure("audit: \(error.description)")
        }
    }
}
