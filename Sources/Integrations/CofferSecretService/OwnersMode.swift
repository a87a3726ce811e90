import CredentialHelperSupport
import Foundation
import KeychainModel
import ProgramIdentity
import SecretService

/// `coffer-secret-service --owners`: which program owns how many of the Secret Service's items, and how to let a
/// program keep the items it stored under another path. This executable lists them because with cofferd the items
/// belong to its access group, which `coffer` cannot read (`coffer apps owners` runs it).
enum OwnersMode {
    static func isRequested(_ arguments: [String]) -> Bool { arguments.first == "--owners" }

    static func run(environment: [String: String]) -> Never {
        let client = HelperKeychain.connect(environment: environment)
        let owners: [SecretServiceOwners.Owner]
        do {
            owners = try SecretServiceOwners(client: client).owners(candidatePaths: UnregisteredPrograms.candidatePaths(environment: environment))
        } catch {
            FileHandle.standardError.write(Data("coffer-secret-service: \(error)\n".utf8))
            exit(1)
        }
        FileHandle.standardOutput.write(Data(text(owners).utf8))
        exit(0)
    }

    /// The listing: one line per owner, then what to do about items whose program was not found.
    static func text(_ owners: [SecretServiceOwners.Owner]) -> String {
        guard !owners.isEmpty else { return "no Secret Service items\n" }
        var lines = ["Secret Service items by owner (each program sees only its own):"]
        for owner in owners {
            let count = owner.items == 1 ? "1 item" : "\(owner.items) items"
            let who: String
            switch (owner.group, owner.program) {
            case (nil, _): who = "every program (stored before owners were recorded)"
            case (let group?, let program?): who = owner.isRegistered ? "\(program) (registered, group \(group))" : "\(program) (unregistered, \(group))"
            case (let group?, nil): who = "\(group): no program found with that group (moved, upgraded or removed?)"
            }
            lines.append("  \(count): \(ControlCharacterEscaping.escaped(who))")
        }
        if owners.contains(where: { $0.group != nil && $0.program == nil }) {
            lines.append("A program whose path changed (a Python upgrade) keeps its items when registered with its old group:")
            lines.append("  coffer apps add NEW-PATH --app-id ID --by-path --keep-items-of OLD-PATH-OR-GROUP")
        }
        lines.append("To share items between programs, register them with a common group: coffer apps add PATH --app-id ID --group GROUP")
        return lines.joined(separator: "\n") + "\n"
    }
}
