import ArgumentParser
import Foundation
import KeychainModel
import Query
import Security

/// `find-key`: prints the attributes of the keys that match.
struct FindKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-key", abstract: "Find key items and print their attributes (every key, when nothing names one).")

    @OptionGroup var selection: KeySelection
    @Option(name: .customLong("class"), help: "private or public.")
    var keyClass: KeyClassOption?
    @Flag(name: .customLong("json"), help: "Print one JSON array of the keys instead (for scripts).")
    var json = false

    func run() throws {
        let command = Self.configuration.commandName!
        try KeyListing.print(
            selection.entries, keyClass: keyClass?.appleValue, client: ItemCommandSupport.client(command: command), command: command,
            json: json)
    }
}

/// `--class`: which half of a pair.
enum KeyClassOption: String, ExpressibleByArgument {
    case `private`, `public`

    /// `kSecAttrKeyClass`'s value.
    var appleValue: String { self == .private ? kSecAttrKeyClassPrivate as String : kSecAttrKeyClassPublic as String }
}

/// `delete-key`: deletes the keys that match (both halves of a pair, unless `--class` says which).
struct DeleteKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete-key", abstract: "Delete the key items that match.")

    @OptionGroup var selection: KeySelection
    @Option(name: .customLong("class"), help: "private or public (default: both).")
    var keyClass: KeyClassOption?

    func run() throws {
        let command = Self.configuration.commandName!
        try selection.requireOne(command)
        var entries = selection.entries
        if let keyClass { entries[.string(QueryKey.keyClass)] = .string(keyClass.appleValue) }
        try ItemWriting.delete(entries, client: ItemCommandSupport.client(command: command), command: command)
    }
}
