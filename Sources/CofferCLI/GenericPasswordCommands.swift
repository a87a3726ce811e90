import ArgumentParser
import Foundation
import KeychainClient
import Query

/// The attributes macOS `security` lets generic-password commands name.
struct GenericPasswordAttributes: ParsableArguments {
    @Option(name: .customShort("s"), help: "Service name (kSecAttrService).")
    var service: String?
    @Option(name: .customShort("a"), help: "Account name (kSecAttrAccount).")
    var account: String?
    @Option(name: .customShort("l"), help: "Label (kSecAttrLabel).")
    var label: String?
    @Option(name: .customShort("j"), help: "Comment (kSecAttrComment).")
    var comment: String?
    @Option(name: .customShort("D"), help: "Kind (kSecAttrDescription).")
    var kind: String?
    @Option(name: .customShort("G"), help: "Generic attribute value (kSecAttrGeneric).")
    var generic: String?

    /// The named attributes as query entries.
    var entries: [KeychainValue: KeychainValue] {
        var entries: [KeychainValue: KeychainValue] = [.string(QueryKey.itemClass): .string(QueryConstant.classGenericPassword)]
        let pairs: [(String, String?)] = [
            (QueryKey.service, service), (QueryKey.account, account), (QueryKey.label, label),
            (QueryKey.comment, comment), (QueryKey.description, kind), (QueryKey.generic, generic),
        ]
        for case let (code, value?) in pairs { entries[.string(code)] = .string(value) }
        return entries
    }
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

struct AddGenericPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-generic-password",
        abstract: "Add a generic password item.",
        discussion: "A password on the command line (-w PASSWORD) is visible to other users in 'ps'; give -w last to be asked for it instead.")

    @OptionGroup var attributes: GenericPasswordAttributes
    @OptionGroup var password: PasswordOptions
    @Flag(name: .customShort("U"), help: "Update the item if it already exists.")
    var update = false

    func run() throws {
        let client = try ItemCommandSupport.client(command: Self.configuration.commandName!)
        try ItemWriting.add(attributes.entries, secret: password.secret(), updateExisting: update, uniqueness: [QueryKey.service, QueryKey.account], client: client, command: Self.configuration.commandName!)
    }
}

struct FindGenericPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-generic-password", abstract: "Find a generic password item and print its attributes or its password.")

    @OptionGroup var attributes: GenericPasswordAttributes
    @OptionGroup var display: FindDisplayOptions

    func run() throws {
        let client = try ItemCommandSupport.client(command: Self.configuration.commandName!)
        try ItemReading.find(attributes.entries, display: display, client: client, command: Self.configuration.commandName!)
    }
}

struct DeleteGenericPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-generic-password", abstract: "Delete the generic password items that match.")

    @OptionGroup var attributes: GenericPasswordAttributes

    func run() throws {
        let client = try ItemCommandSupport.client(command: Self.configuration.commandName!)
        try ItemWriting.delete(attributes.entries, client: client, command: Self.configuration.commandName!)
    }
}
