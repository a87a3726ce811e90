import KeychainClient
import Query

/// `find-generic-password` and `find-internet-password` command lines in their plain form, read
/// without ArgumentParser.
///
/// A lookup is what scripts run most (`coffer find-generic-password -s S -a A -w`), and building
/// ArgumentParser's command tree with its reflection costs more than the lookup itself. This reads only
/// the plain form: each flag on its own (`-w`, `-g`, or an attribute flag followed by its value), none
/// twice, no value that starts with `-`. For anything else it returns nil and the command line goes to
/// ArgumentParser, which reads every form and names every mistake. Both readings share the flag table
/// and the validation (``PasswordAttributes``); a test checks that they agree.
struct QuickFind {
    /// The command name (`find-generic-password`).
    let command: String
    /// The query entries the attribute flags name, with the class.
    let entries: [KeychainValue: KeychainValue]
    /// `-w`: print only the password.
    let passwordOnly: Bool
    /// `-g`: also print the password on standard error.
    let showPassword: Bool

    /// The find command `arguments` (without the program name) spell in the plain form, or nil.
    init?(_ arguments: [String]) {
        switch arguments.first {
        case "find-\(GenericPasswordAttributes.kind)-password"?:
            self.init(arguments, attributes: GenericPasswordAttributes.self)
        case "find-\(InternetPasswordAttributes.kind)-password"?:
            self.init(arguments, attributes: InternetPasswordAttributes.self)
        default:
            return nil
        }
    }

    private init?<Attributes: PasswordAttributes>(_ arguments: [String], attributes: Attributes.Type) {
        var values: [String: String] = [:]
        var passwordOnly = false, showPassword = false
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            // Flags are keyed by String, not Character: String is hashed on this path anyway, and each first use of
            // another Hashable type costs the runtime a scan of every conformance in the program.
            guard argument.utf8.count == 2, argument.first == "-", argument.last != "-" else { return nil }
            let flag = String(argument.dropFirst())
            switch flag {
            case "w":
                guard !passwordOnly else { return nil }
                passwordOnly = true
            case "g":
                guard !showPassword else { return nil }
                showPassword = true
            default:
                guard Attributes.attributeFlags[flag] != nil, values[flag] == nil, index + 1 < arguments.count,
                    !arguments[index + 1].hasPrefix("-")
                else { return nil }
                index += 1
                values[flag] = arguments[index]
            }
            index += 1
        }
        guard let entries = Attributes.entries(values) else { return nil }
        self.command = arguments[0]
        self.entries = entries
        self.passwordOnly = passwordOnly
        self.showPassword = showPassword
    }

    /// Runs the lookup, exactly as the ArgumentParser-built command does.
    func run() throws {
        try ItemReading.find(
            entries, passwordOnly: passwordOnly, showPassword: showPassword,
            client: ItemCommandSupport.client(command: command), command: command)
    }
}
