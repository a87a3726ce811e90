import ArgumentParser
import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations

/// `coffer apps add | list | remove`: the daemon's registry of programs and their access groups.
struct AppsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "Register programs with the daemon: which access groups each executable may use.",
        discussion: """
            Coffer's counterpart of an app's entitlements. A registered executable gets its keychain \
            access groups (in order; the first is the default for new items) and then its application \
            identifier. An unregistered program gets a group of its own and sees only what it created. \
            Needs the daemon (cofferd) and the keychain passcode (read from standard input when it is \
            not a terminal), so that no program can register itself behind your back.

            A program is recognised by an identity group of its own: 'sudo coffer apps add PATH …' \
            creates the group and makes PATH root-owned and setgid to it (through dpkg-statoverride when a \
            Debian package owns it), then registers it in your keychain. The kernel tells the daemon that \
            group at connect, so your other programs cannot pose as it. --by-path registers by path instead: \
            a convenience any program of yours can defeat (SECURITY.md).

            A systemd unit is registered by name: 'coffer apps add --unit backup.service --app-id … --group …'. \
            cofferd then serves it credentials on its credentials socket (LoadCredential=NAME:SOCKET): the \
            generic password whose service is NAME, among the unit's access groups, and nothing else.
            """,
        subcommands: [Add.self, List.self, Remove.self, Owners.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Register (or re-approve) an executable, or a systemd unit with --unit.", aliases: ["register"])

        @Argument(help: "The executable's absolute path.")
        var path: String?
        @Option(name: .customLong("unit"), help: "Register a systemd unit by name (backup.service) instead of an executable.")
        var unit: String?
        @Option(name: .customLong("app-id"), help: "The application identifier, e.g. TEAM.com.example.app.")
        var appID: String
        @Option(name: .customLong("group"), help: "A keychain access group (repeat for several, in order).")
        var groups: [String] = []
        @Flag(name: .customLong("by-path"), help: "Register by path (the convenience mode): any program of yours can pose as it.")
        var byPath = false
        @Flag(name: .customLong("pin-hash"), help: "With --by-path: pin the executable's current SHA-256; a changed binary loses access until re-approved.")
        var pinHash = false
        @Option(
            name: .customLong("keep-items-of"),
            help: ArgumentHelp(
                "Also give it the items the program at this old path stored unregistered (or the unregistered.… group 'coffer apps owners' names): for a program whose path changed.",
                valueName: "old-path-or-group"))
        var keepItemsOf: [String] = []

        /// The groups to register: `--group`s, then the unregistered groups `--keep-items-of` names.
        var registeredGroups: [String] {
            groups + keepItemsOf.map { $0.hasPrefix("unregistered.") ? $0 : UnregisteredProgramGroup.of(path: $0) }
        }

        func validate() throws {
            guard !appID.isEmpty else { throw ValidationError("--app-id must not be empty.") }
            if let unit {
                guard path == nil else { throw ValidationError("give an executable's PATH or --unit NAME, not both.") }
                guard !byPath, !pinHash, keepItemsOf.isEmpty else {
                    throw ValidationError("--by-path, --pin-hash and --keep-items-of apply to executables, not to --unit.")
                }
                guard unit.contains(".") else { throw ValidationError("--unit takes the unit's full name, such as \(unit).service.") }
                return
            }
            guard let path else { throw ValidationError("give the executable's PATH, or --unit NAME for a systemd unit.") }
            guard path.hasPrefix("/") else { throw ValidationError("PATH must be absolute, not '\(path)'.") }
            guard FileManager.default.isExecutableFile(atPath: path) else { throw ValidationError("'\(path)' is not an executable file.") }
            guard !pinHash || byPath else { throw ValidationError("--pin-hash applies to --by-path registrations only.") }
        }

        func run() throws {
            if let unit {
                let registration = AppRegistration(
                    executablePath: unit, applicationIdentifier: appID, accessGroups: groups, pinsExecutableHash: false, mode: .systemdUnit)
                return try AppsCommand.withPasscode { passcode in
                    try AppsCommand.print(AppsCommand.send(.appsAdd(registration, passcode: passcode), command: "apps add"))
                }
            }
            guard let path else { return }
            let canonical = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            let setup = AppIdentitySetup(path: canonical)
            if !byPath {
                if geteuid() == 0 {
                    let group = try setup.establish()
                    FileHandle.standardError.write(Data("coffer: \(canonical) runs setgid to \(group)\n".utf8))
                } else if try setup.existingIdentityGroup() == nil {
                    throw CLIFailure(
                        """
                        apps add: \(canonical) has no identity group (a group of its own it runs setgid to, from a root-owned file); \
                        give it one with 'sudo coffer apps add \(canonical) --app-id \(appID)', or add --by-path for the convenience \
                        mode, which any program of yours can defeat
                        """)
                }
            }
            try InvokingUser.fromSudo()?.becomeForGood()
            let registration = AppRegistration(
                executablePath: canonical, applicationIdentifier: appID, accessGroups: registeredGroups, pinsExecutableHash: pinHash,
                mode: byPath ? .path : .identityGroup)
            try AppsCommand.withPasscode { passcode in
                try AppsCommand.print(AppsCommand.send(.appsAdd(registration, passcode: passcode), command: "apps add"))
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the registered executables.")

        @Flag(name: .customLong("json"), help: "Print one JSON array of the registrations instead (for scripts).")
        var json = false

        func run() throws {
            let apps = try AppsCommand.send(.appsList, command: "apps list")
            if json { try JSONOutput.print(apps.map(AppsCommand.jsonObject)) } else { AppsCommand.print(apps) }
        }
    }

    struct Owners: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "owners", abstract: "Show which program owns how many Secret Service items (each program sees only its own).",
            discussion: """
                Run by coffer-secret-service (beside coffer, else on PATH), which reads the items with its own access. \
                An owner whose program is not found is usually a program that moved or was upgraded: register the new \
                path with --keep-items-of OLD-PATH to give it those items again.
                """)

        func run() throws {
            let status = try ImportSecretServiceCommand.runProvider(["coffer-secret-service", "--owners"])
            if status != 0 { throw ExitCode(status) }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a registration, by executable path, unit name or application identifier.")

        @Argument(help: "An executable path, a systemd unit's name or an application identifier.")
        var pathOrAppID: String
        @Flag(name: .customLong("remove-identity"), help: "Also remove the executable's setgid bit, stat override and coffer-app group (as root, by path).")
        var removeIdentity = false

        func validate() throws {
            guard !removeIdentity || pathOrAppID.hasPrefix("/") else { throw ValidationError("--remove-identity needs the executable's path.") }
        }

        func run() throws {
            let selector: AppSelector = pathOrAppID.hasPrefix("/") ? .executablePath(pathOrAppID) : .applicationIdentifier(pathOrAppID)
            let removal = {
                try AppsCommand.withPasscode { passcode in
                    try AppsCommand.print(AppsCommand.send(.appsRemove(selector, passcode: passcode), command: "apps remove"))
                }
            }
            guard removeIdentity else {
                try InvokingUser.fromSudo()?.becomeForGood()
                return try removal()
            }
            guard geteuid() == 0 else { throw CLIFailure("apps remove: --remove-identity changes system groups and file modes; run it with sudo") }
            // The registry first, as the user; then root undoes the file's identity.
            if let user = InvokingUser.fromSudo() { try user.whileActingAsUser(removal) } else { try removal() }
            try AppIdentitySetup(path: pathOrAppID).remove()
        }
    }

    /// Reads the keychain passcode (registry edits need it); it is zeroized when released.
    static func withPasscode(_ body: (SecretBytes) throws -> Void) throws {
        try body(CLIFailure.reporting { try PasscodeInput().existing("Keychain passcode") })
    }

    static func send(_ request: Request, command: String) throws -> [RegisteredApp] {
        guard case .daemon = CLIKeychain.choice else {
            throw CLIFailure(
                "\(command): the app registry lives in the daemon; start cofferd or set COFFER_SOCKET (COFFER_HOME selects the embedded keychain, where every program is unregistered, for coffer-secret-service too)"
            )
        }
        do {
            return try CLIKeychain.shared.sendBlocking(request).appsResult()
        } catch .keystore(.noPasscodeSet) {
            throw CLIFailure("\(command): registering programs needs a keychain passcode; set one with 'coffer passcode set'")
        } catch .keystore(let error) {
            throw CLIFailure("\(command): \(error.description)")
        } catch .refused(let failure) {
            throw ItemCommandSupport.failure(command, failure)
        }
    }

    /// A registration as `apps list --json` prints it.
    static func jsonObject(_ app: RegisteredApp) -> [String: Any] {
        var object: [String: Any] = [
            "path": app.executablePath, "appID": app.applicationIdentifier, "groups": app.accessGroups,
            "mode": app.isSystemdUnit ? "systemd-unit" : app.identityGroupID == nil ? "path" : "identity-group",
        ]
        if let gid = app.identityGroupID {
            object["identityGroup"] = ["gid": gid, "name": AppIdentitySetup.groupName(of: gid) ?? NSNull()] as [String: Any]
        }
        object["pinnedSHA256"] = app.executableHash.map { Hexadecimal.text($0) } ?? NSNull()
        return object
    }

    static func print(_ apps: [RegisteredApp]) {
        if apps.isEmpty { Swift.print("no registered programs") }
        for app in apps {
            let shown = ControlCharacterEscaping.escaped
            var lines = [
                shown(app.executablePath), "    app id: \(shown(app.applicationIdentifier))",
                "    groups: \(shown(app.accessGroups.joined(separator: ", ")))",
            ]
            if app.isSystemdUnit {
                lines.append("    mode: systemd unit (credentials on cofferd's credentials socket)")
            } else if let gid = app.identityGroupID {
                lines.append("    mode: identity group \(AppIdentitySetup.groupName(of: gid) ?? "?") (gid \(gid))")
                lines.append("    secret service: recognised by the groups the bus reports at connect; unregistered on a bus that reports none")
            } else {
                lines.append("    mode: by path (convenience: any program of yours can pose as it)")
                lines.append("    hash: " + (app.executableHash.map { "sha256 " + Hexadecimal.text($0) } ?? "not pinned"))
                lines.append("    secret service: recognised by path, as cofferd does")
            }
            Swift.print(lines.joined(separator: "\n"))
        }
    }
}
