import ArgumentParser
import Foundation
import KeychainClient
import KeychainModel
import Query

/// How `find-…-password` shows what it found.
struct FindDisplayOptions: ParsableArguments {
    @Flag(name: .customShort("w"), help: "Print only the password.")
    var passwordOnly = false
    @Flag(name: .customShort("g"), help: "Also print the password (on standard error).")
    var showPassword = false
}

/// Add (with `-U` update) and delete, shared by both password classes.
enum ItemWriting {
    /// Adds the item; with `updateExisting` (`-U`), an item with the same primary key is updated instead
    /// (``UpsertPlan``, as the Swift API's `set(_:)` does).
    static func add(
        _ entries: [KeychainValue: KeychainValue], secret: Data?, updateExisting: Bool, itemClass: ItemClass,
        client: any KeychainClient, command: String
    ) throws {
        var attributes = QueryDictionary(entries)
        if let secret { attributes[QueryKey.valueData] = .data(secret) }
        do {
            _ = try client.blocking.add(attributes)
        } catch where error.status == .duplicateItem && updateExisting {
            let plan = UpsertPlan(adding: attributes, itemClass: itemClass)
            try ItemCommandSupport.run(command) { () throws(KeychainFailure) in
                try client.blocking.update(plan.query, attributesToUpdate: plan.changes)
            }
        } catch {
            throw ItemCommandSupport.failure(command, error)
        }
    }

    static func delete(_ entries: [KeychainValue: KeychainValue], client: any KeychainClient, command: String) throws {
        try ItemCommandSupport.run(command) { () throws(KeychainFailure) in try client.blocking.delete(QueryDictionary(entries)) }
    }
}

/// Find, shared by both password classes.
enum ItemReading {
    /// Finds the first match and prints its attributes, or with `passwordOnly` (`-w`) its password alone;
    /// `showPassword` (`-g`) adds the password on standard error.
    static func find(
        _ entries: [KeychainValue: KeychainValue], passwordOnly: Bool, showPassword: Bool, client: any KeychainClient,
        command: String
    ) throws {
        var query = entries
        query[.string(QueryKey.matchLimit)] = .string(QueryConstant.matchLimitOne)
        query[.string(QueryKey.returnAttributes)] = .bool(true)
        if passwordOnly || showPassword { query[.string(QueryKey.returnData)] = .bool(true) }
        let result = try ItemCommandSupport.run(command) { () throws(KeychainFailure) in try client.blocking.copyMatching(QueryDictionary(query)) }
        guard case .dictionary(let item)? = result else { throw CLIFailure("\(command): unexpected result shape") }
        let secret: Data = if case .data(let data)? = item[QueryKey.valueData] { data } else { Data() }
        if passwordOnly {
            print(ItemPrinter.secretText(secret))
            return
        }
        if case .string(let itemClass)? = entries[.string(QueryKey.itemClass)] {
            print(ItemPrinter.describe(itemClass: itemClass, attributes: item))
        }
        if showPassword {
            FileHandle.standardError.write(Data("password: \"\(ItemPrinter.secretText(secret))\"\n".utf8))
        }
    }
}

struct DumpKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump-keychain", abstract: "Print every password item's attributes (and with -d, its secret).")

    @Flag(name: .customShort("d"), help: "Also print the secrets (a warning goes to standard error first).")
    var withSecrets = false

    func run() throws {
        let command = Self.configuration.commandName!
        let client = try ItemCommandSupport.client(command: command)
        if withSecrets {
            FileHandle.standardError.write(Data("coffer: warning: printing the secrets of every item in this keychain\n".utf8))
        }
        for itemClass in [QueryConstant.classGenericPassword, QueryConstant.classInternetPassword] {
            var query: [KeychainValue: KeychainValue] = [
                .string(QueryKey.itemClass): .string(itemClass),
                .string(QueryKey.matchLimit): .string(QueryConstant.matchLimitAll),
                .string(QueryKey.returnAttributes): .bool(true),
                .string(QueryKey.synchronizable): .string(QueryConstant.synchronizableAny),
            ]
            if withSecrets { query[.string(QueryKey.returnData)] = .bool(true) }
            let result: KeychainValue?
            do {
                result = try client.blocking.copyMatching(QueryDictionary(query))
            } catch where error.status == .itemNotFound {
                continue
            } catch {
                throw ItemCommandSupport.failure(command, error)
            }
            guard case .array(let items)? = result else { continue }
            for case .dictionary(let item) in items {
                print(ItemPrinter.describe(itemClass: itemClass, attributes: item))
                if withSecrets, case .data(let secret)? = item[QueryKey.valueData] {
                    print("data:\n\(ItemPrinter.secretText(secret))")
                }
                print()
            }
        }
    }
}
