import ArgumentParser
import Foundation
import KeychainClient
import KeychainModel
import Query

/// The attributes one password class's commands accept: the flags macOS `security` gives that class.
protocol PasswordAttributes: ParsableArguments {
    /// `generic` or `internet`, as in `add-generic-password`.
    static var kind: String { get }
    /// The item class the commands work on.
    static var itemClass: ItemClass { get }
    /// The one-letter flag of each attribute the commands can name, and the attribute (its `kSecAttr…` key).
    static var attributeFlags: [String: String] { get }
    /// The values given, by flag.
    var flagValues: [String: String] { get }
    /// The query entries, with the class, for values by flag; nil when a value is not valid for its flag.
    static func entries(_ values: [String: String]) -> [KeychainValue: KeychainValue]?
}

extension PasswordAttributes {
    /// The query entries the flags name, with the class (values were validated when parsed).
    var entries: [KeychainValue: KeychainValue] { Self.entries(flagValues) ?? [:] }
}

/// Options for reading a password given with `-w`.
struct PasswordOptions: ParsableArguments {
    @Option(
        name: .customShort("w"),
        help: ArgumentHelp(
            "The password. Give -w last, with no value, to be asked for it (or to read it from standard input).",
            discussion: "A password on the command line is visible to other users in 'ps': prefer a final -w."))
    var password: String?
    @Flag(name: .customLong("password-from-input"), help: .hidden)
    var passwordFromInput = false

    /// The secret, or nil when no `-w` was given.
    func secret() throws -> Data? { try ItemCommandSupport.password(option: password, fromInput: passwordFromInput) }
}

/// `add-generic-password` and `add-internet-password`.
struct AddPassword<Attributes: PasswordAttributes>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "add-\(Attributes.kind)-password",
            abstract: "Add \(Attributes.kind == "internet" ? "an" : "a") \(Attributes.kind) password item.",
            discussion: "A password on the command line (-w PASSWORD) is visible to other users in 'ps'; give -w last to be asked for it instead.")
    }

    @OptionGroup var attributes: Attributes
    @OptionGroup var password: PasswordOptions
    @OptionGroup var synchronizable: SynchronizableOption
    @Flag(name: .customShort("U"), help: "Update the item if it already exists.")
    var update = false

    func validate() throws {
        if synchronizable.choice == .any { throw ValidationError("--synchronizable any is for find and delete: an item is added as yes or no") }
    }

    func run() throws {
        let command = Self.configuration.commandName!
        try ItemWriting.add(
            synchronizable.applied(to: attributes.entries), secret: password.secret(), updateExisting: update, itemClass: Attributes.itemClass,
            client: ItemCommandSupport.client(command: command), command: command)
    }
}

/// `find-generic-password` and `find-internet-password`.
struct FindPassword<Attributes: PasswordAttributes>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "find-\(Attributes.kind)-password",
            abstract: "Find \(Attributes.kind == "internet" ? "an" : "a") \(Attributes.kind) password item and print its attributes or its password.")
    }

    @OptionGroup var attributes: Attributes
    @OptionGroup var synchronizable: SynchronizableOption
    @OptionGroup var display: FindDisplayOptions

    func run() throws {
        let command = Self.configuration.commandName!
        try ItemReading.find(
            synchronizable.applied(to: attributes.entries), passwordOnly: display.passwordOnly, showPassword: display.showPassword,
            exactBytes: display.exactBytes,
            json: display.json, client: ItemCommandSupport.client(command: command), command: command)
    }
}

/// `delete-generic-password` and `delete-internet-password`: deletes every item that matches the attributes given.
/// With none given it refuses, as `secret-tool clear` and `pass rm` do; `--all` deletes the whole class, after saying how
/// many items that is and, on a terminal, asking.
struct DeletePassword<Attributes: PasswordAttributes>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "delete-\(Attributes.kind)-password", abstract: "Delete the \(Attributes.kind) password items that match.",
            discussion: "Name the items with at least one attribute; --all deletes every \(Attributes.kind) password instead.")
    }

    @OptionGroup var attributes: Attributes
    @OptionGroup var synchronizable: SynchronizableOption
    @Flag(name: .customLong("all"), help: "Delete every \(Attributes.kind) password (says how many, and asks on a terminal).")
    var all = false

    func validate() throws {
        let named = !attributes.flagValues.isEmpty
        if !named && !all {
            throw ValidationError(
                "name the items to delete with at least one attribute (-s, -a, -l…), or give --all to delete every \(Attributes.kind) password")
        }
        if named && all { throw ValidationError("--all deletes every \(Attributes.kind) password: give it without attributes") }
    }

    func run() throws {
        let command = Self.configuration.commandName!
        let client = try ItemCommandSupport.client(command: command)
        // --all means every item of the class, synchronizable or not, unless the option narrows it.
        let entries = synchronizable.applied(to: attributes.entries, fallback: all ? .any : nil)
        if all {
            let count = try ItemReading.count(entries, client: client, command: command)
            guard count > 0 else {
                throw CLIFailure("\(command): there are no \(Attributes.kind) passwords to delete", exitCode: ItemCommandSupport.exitCode(for: .itemNotFound))
            }
            let items = count == 1 ? "1 \(Attributes.kind) password" : "\(count) \(Attributes.kind) passwords"
            guard try DeletionConfirmation.confirm("This deletes \(items).") else {
                throw CLIFailure("\(command): nothing was deleted")
            }
        }
        try ItemWriting.delete(entries, client: client, command: command)
    }
}
