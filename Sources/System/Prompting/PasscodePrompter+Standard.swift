#if canImport(Glibc)
import Glibc
#endif

extension PasscodePrompter {
    /// The environment variable that names the pinentry program to use when there is no terminal.
    public static let pinentryVariable = "COFFER_PINENTRY"

    /// The prompter a process uses by default: the controlling terminal when there is one (`/dev/tty`
    /// opens and is a terminal); otherwise the pinentry program `COFFER_PINENTRY` names (a path, or a name
    /// looked up on `PATH`); otherwise `pinentry` on `PATH`. Nil when there is none of them.
    public static func standard(environment: [String: String]) -> PasscodePrompter? {
        if TerminalPasscodeReader.isAvailable { return PasscodePrompter(method: .terminal) }
        if let named = environment[pinentryVariable], !named.isEmpty {
            // A name that is not found is still the person's choice: asking then fails and says so.
            let program = named.contains("/") ? named : programOnPath(named, environment: environment) ?? named
            return PasscodePrompter(method: .pinentry(program: program))
        }
        return pinentryOnPath(environment: environment).map { PasscodePrompter(method: .pinentry(program: $0)) }
    }

    /// `pinentry` found on the environment's `PATH` (`/usr/bin:/bin` when it has none); nil when absent.
    public static func pinentryOnPath(environment: [String: String]) -> String? {
        programOnPath("pinentry", environment: environment)
    }

    /// The first executable file called `name` in the folders of the environment's `PATH`.
    private static func programOnPath(_ name: String, environment: [String: String]) -> String? {
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
