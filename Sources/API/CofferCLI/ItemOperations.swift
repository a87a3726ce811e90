import ArgumentParser
import Foundation
import KeychainClient
import KeychainModel
import Query

/// How `find-…-password` shows what it found: `security`'s `-w` and `-g` (text, or hexadecimal when the password
/// is not printable text, as `security` prints it), or the exact bytes (`--raw`, `-o FILE`) for multi-line and binary
/// secrets, as `secret-tool lookup` and `pass show` give them.
struct FindDisplayOptions: ParsableArguments {
    @Flag(name: .customShort("w"), help: "Print only the password (hexadecimal when it is not printable text, as security does).")
    var passwordOnly = false
    @Flag(name: .customShort("g"), help: "Also print the password (on standard error).")
    var showPassword = false
    @Flag(name: .customLong("raw"), help: "Write only the password's exact bytes to standard output, with no newline added.")
    var raw = false
    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp(
            "Write only the password's exact bytes to a new file, mode 0600.", valueName: "file"))
    var outputFile: String?
    @Flag(name: .customLong("force"), help: "With -o: replace an existing file.")
    var force = false
    @Flag(name: .customLong("json"), help: "Print the item's attributes as one JSON object (for scripts); the password is not included.")
    var json = false

    func validate() throws {
        if raw && outputFile != nil { throw ValidationError("--raw writes to standard output and -o to a file: give one of them") }
        if (raw || outputFile != nil) && (passwordOnly || showPassword) {
            throw ValidationError("--raw and -o write the password alone: give them without -w or -g")
        }
        if force && outputFile == nil { throw ValidationError("--force applies to -o FILE only") }
        if json && (passwordOnly || showPassword || raw || outputFile != nil) {
            throw ValidationError("--json prints the attributes: give it without -w, -g, --raw or -o")
        }
    }

    /// Where the exact bytes go, when they are asked for.
    var exactBytes: ExportDestination? {
        raw || outputFile != nil ? ExportDestination(path: outputFile, force: force) : nil
    }
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
        } catch  where error.status == .duplicateItem && updateExisting {
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
    /// How many items match `entries` (0 when none).
    static func count(_ entries: [KeychainValue: KeychainValue], client: any KeychainClient, command: String) throws -> Int {
        var query = entries
        query[.string(QueryKey.matchLimit)] = .string(QueryConstant.matchLimitAll)
        query[.string(QueryKey.returnAttributes)] = .bool(true)
        if query[.string(QueryKey.synchronizable)] == nil {
            query[.string(QueryKey.synchronizable)] = .string(QueryConstant.synchronizableAny)
        }
        do {
            guard case .array(let items)? = try client.blocking.copyMatching(QueryDictionary(query)) else { return 0 }
            return items.count
        } catch  where error.status == .itemNotFound {
            return 0
        } catch {
            throw ItemCommandSupport.failure(command, error)
        }
    }

    /// Finds the first match and prints its attributes, or with `passwordOnly` (`-w`) its password alone;
    /// `showPassword` (`-g`) adds the password on standard error; `exactBytes` writes the password's bytes alone
    /// there instead (`--raw`, `-o FILE`).
    static func find(
        _ entries: [KeychainValue: KeychainValue], passwordOnly: Bool, showPassword: Bool, exactBytes: ExportDestination? = nil,
        json: Bool = false, client: any KeychainClient, command: String
    ) throws {
        var query = entries
        query[.string(QueryKey.matchLimit)] = .string(QueryConstant.matchLimitOne)
        query[.string(QueryKey.returnAttributes)] = .bool(true)
        if passwordOnly || showPassword || exactBytes != nil { query[.string(QueryKey.returnData)] = .bool(true) }
        let result = try ItemCommandSupport.run(command) { () throws(KeychainFailure) in try client.blocking.copyMatching(QueryDictionary(query)) }
        guard case .dictionary(let item)? = result else { throw CLIFailure("\(command): unexpected result shape") }
        var secret: Data = if case .data(let data)? = item[QueryKey.valueData] { data } else { Data() }
        if let destination = exactBytes {
            defer { secret.resetBytes(in: 0..<secret.count) }
            try secret.withUnsafeBytes { bytes in try destination.write(bytes, command: command) }
            return
        }
        if passwordOnly {
            // coffer-lint:disable secret-in-log: printing the password is what --password-only asks for.
            print(ItemPrinter.secretText(secret))
            return
        }
        if json, case .string(let itemClass)? = entries[.string(QueryKey.itemClass)] {
            try JSONOutput.print(JSONOutput.item(itemClass: itemClass, attributes: item))
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
