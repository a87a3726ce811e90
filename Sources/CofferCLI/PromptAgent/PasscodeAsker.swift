import Foundation
import KeychainModel

/// How the prompt agent asks the person: through pinentry, or on the agent's own terminal.
struct PasscodeAsker {
    private enum Method {
        case pinentry(Pinentry)
        case terminal
    }

    private let method: Method

    /// Pinentry when one is named or found on `PATH` (unless `terminal` asks for the terminal), else the terminal.
    init(pinentry: String?, terminal: Bool) throws {
        if let pinentry, !terminal {
            method = .pinentry(Pinentry(program: pinentry))
        } else if !terminal, let found = Pinentry.onPath(environment: ProcessInfo.processInfo.environment) {
            method = .pinentry(Pinentry(program: found))
        } else if PasscodeInput.terminalIsAvailable {
            method = .terminal
        } else {
            throw CLIFailure("no pinentry program and no terminal to ask on: install pinentry or pass --pinentry PROGRAM")
        }
    }

    /// The passcode the person typed; nil when they cancelled.
    func ask(_ message: String, error: String?) throws -> SecretBytes? {
        switch method {
        case .pinentry(let pinentry):
            switch Result(catching: { () throws(Pinentry.Failure) in try pinentry.askPasscode(description: message, error: error) }) {
            case .success(let passcode): return passcode
            case .failure(.cancelled): return nil
            case .failure(let failure): throw CLIFailure(failure.description)
            }
        case .terminal:
            let note = error.map { "\($0)\n" } ?? ""
            FileHandle.standardError.write(Data("\n\(note)\(message)\n".utf8))
            return try PasscodeInput.fromTerminal("Keychain passcode")
        }
    }
}
