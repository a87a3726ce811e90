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
            """,
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Register (or re-approve) an executable.")

        @Argument(help: "The executable's absolute path.")
        var path: String
        @Option(name: .customLong("app-id"), help: "The application identifier, e.g. TEAM.com.example.app.")
        var appID: String
        @Option(name: .customLong("group"), help: "A keychain access group (repeat for several, in order).")
        var groups: [String] = []
        @Flag(name: .customLong("pin-hash"), help: "Pin the executable's current SHA-256: a changed binary loses access until re-approved.")
        var pinHash = false

        func validate() throws {
            guard path.hasPrefix("/") else { throw ValidationError("PATH must be absolute, not '\(path)'.") }
            guard FileManager.default.isExecutableFile(atPath: path) else { throw ValidationError("'\(path)' is not an executable file.") }
            guard !appID.isEmpty else { throw ValidationError("--app-id must not be empty.") }
        }

        func run() throws {
            let canonical = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            let registration = AppRegistration(
                executablePath: canonical, applicationIdentifier: appID, accessGroups: groups, pinsExecutableHash: pinHash)
            try AppsCommand.withPasscode { passcode in
                try AppsCommand.print(AppsCommand.send(.appsAdd(registration, passcode: passcode), command: "apps add"))
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the registered executables.")

        func run() throws { try AppsCommand.print(AppsCommand.send(.appsList, command: "apps list")) }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a registration, by executable path or application identifier.")

        @Argument(help: "An executable path or an application identifier.")
        var pathOrAppID: String

        func run() throws {
            let selector: AppSelector = pathOrAppID.hasPrefix("/") ? .executablePath(pathOrAppID) : .applicationIdentifier(pathOrAppID)
            try AppsCommand.withPasscode { passcode in
                try AppsCommand.print(AppsCommand.send(.appsRemove(selector, passcode: passcode), command: "apps remove"))
            }
        }
    }

    /// Reads the keychain passcode (registry edits need it); it is zeroized when released.
    static func withPasscode(_ body: (SecretBytes) throws -> Void) throws {
        try body(CLIFailure.reporting { try PasscodeInput().existing("Keychain passcode") })
    }

    static func send(_ request: Request, command: String) throws -> [RegisteredApp] {
        guard case .daemon(let socket) = KeychainLocation.choice() else {
            throw CLIFailure("\(command): the app registry lives in the daemon; start cofferd or set COFFER_SOCKET (COFFER_HOME selects the embedded keychain)")
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

    static func print(_ apps: [RegisteredApp]) {
        if apps.isEmpty { Swift.print("no registered programs") }
        for app in apps {
            let pin = app.executableHash.map { "sha256 " + $0.map { String(format: "%02x", $0) }.joined() } ?? "not pinned"
            Swift.print("\(app.executablePath)\n    app id: \(app.applicationIdentifier)\n    groups: \(app.accessGroups.joined(separator: ", "))\n    hash: \(pin)")
        }
    }
}
