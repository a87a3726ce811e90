import Foundation
import KeychainModel
import Prompting

#if canImport(Glibc)
import Glibc
#endif

/// How the prompt agent asks the person: the agent's choice of `PasscodePrompter` (pinentry when one is
/// named or on `PATH`, else the terminal) and its words.
struct PasscodeAsker {
    private let prompter: PasscodePrompter

    /// Pinentry when one is named or found on `PATH` (unless `terminal` asks for the terminal), else the terminal.
    ///
    /// An agent that runs with the trusted front end's group (the `coffer` command installed setgid) answers the
    /// daemon's prompts with the person's passcode, so the pinentry it starts must be the owner's: a program whose
    /// file and folders are root's alone (``RootOwnedPath``), never one a program of the user wrote or put first on
    /// `PATH`; and it runs without that group (`SpawnedProgram` resets its IDs to the agent's real ones).
    init(pinentry: String?, terminal: Bool) throws {
        if let pinentry, !terminal {
            prompter = PasscodePrompter(method: .pinentry(program: try Self.allowed(pinentry)))
        } else if !terminal, let found = PasscodePrompter.pinentryOnPath(environment: ProcessInfo.processInfo.environment) {
            prompter = PasscodePrompter(method: .pinentry(program: try Self.allowed(found)))
        } else if TerminalPasscodeReader.isAvailable {
            prompter = PasscodePrompter(method: .terminal)
        } else {
            throw CLIFailure("no pinentry program and no terminal to ask on: install pinentry or pass --pinentry PROGRAM")
        }
    }

    /// `program` (its symbolic links resolved) when this agent may start it: any program when the agent runs without
    /// a group of the setgid file, only a root-owned one in root-owned folders when it runs with it.
    static func allowed(_ program: String) throws -> String {
        guard getegid() != getgid() else { return program }
        guard program.hasPrefix("/"), let resolved = realpath(program, nil) else {
            throw CLIFailure("pinentry \(ControlCharacterEscaping.escaped(program)) must be named by an absolute path that exists")
        }
        defer { free(resolved) }
        let target = String(cString: resolved)
        let linkFolder = String(program[..<(program.lastIndex(of: "/") ?? program.startIndex)])
        if let problem = RootOwnedPath.problem(target, kind: .executable)
            ?? (linkFolder.isEmpty ? nil : RootOwnedPath.problem(linkFolder, kind: .folder))
        {
            throw CLIFailure(
                "the prompt agent runs with the trusted front end's group, so its pinentry must be a root-owned program in root-owned folders: \(ControlCharacterEscaping.escaped(problem))"
            )
        }
        return target
    }

    /// The passcode the person typed; nil when they cancelled. The person takes as long as they like: the
    /// daemon withdraws a prompt whose program leaves.
    func ask(_ message: String, error: String?) throws -> SecretBytes? {
        let prompt = prompter.method == .terminal ? "Keychain passcode:" : "Passcode:"
        let question = PasscodeQuestion(title: "Coffer", description: message, prompt: prompt, error: error, timeout: nil)
        do {
            return try prompter.askPasscode(question)
        } catch .cancelled {
            return nil
        } catch {
            throw CLIFailure(error.description)
        }
    }
}
