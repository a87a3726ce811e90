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
    static var attributeFlags: [Character: String] { get }
    /// The values given, by flag.
    var flagValues: [Character: String] { get }
    /// The query entries, with the class, for values by flag; nil when a value is not valid for its flag.
    static func entries(_ values: [Character: String]) -> [KeychainValue: KeychainValue]?
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
    @Flag(name: .customShort("U"), help: "Update the item if it already exists.")
    var update = false

    func run() throws {
        let command = Self.configuration.commandName!
        try ItemWriting.add(
            attributes.entries, secret: password.secret(), updateExisting: update, itemClass: Attributes.itemClass,
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
    @OptionGroup var display: FindDisplayOptions

    func run() throws {
        let command = Self.configuration.commandName!
        try ItemReading.find(
            attributes.entries, passwordOnly: display.passwordOnly, showPassword: display.showPassword,
            client: ItemCommandSupport.client(command: command), command: command)
    }
}

/// `delete-generic-password` and `delete-internet-password`.
struct DeletePassword<Attributes: PasswordAttributes>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "delete-\(Attributes.kind)-password", abstract: "Delete the \(Attributes.kind) password items that match.")
    }

    @OptionGroup var attributes: Attributes

    func run() throws {
        let command = Self.configuration.commandName!
        try ItemWriting.delete(attributes.entries, client: ItemCommandSupport.client(command: command), command: command)
    }
}
