import ArgumentParser
import Foundation
import KeychainClient
import KeychainModel
import Query

#if canImport(Glibc)
import Glibc
#endif

/// `dump-keychain`: every password item's attributes (and with `-d` its secret), as `security dump-keychain` prints
/// them, streamed: the items' persistent references are listed first, then each item is read and printed on its
/// own, so the memory used stays the same whatever the number of items. Invisible items (`kSecAttrIsInvisible`,
/// such as the Secret Service's attribute postings) are left out unless `--include-invisible` is given.
struct DumpKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump-keychain", abstract: "Print every password item's attributes (and with -d, its secret).",
        discussion: """
            Items marked invisible (kSecAttrIsInvisible: the Secret Service provider's attribute postings) are not \
            listed; their number is said on standard error, and --include-invisible lists them too. When standard \
            output is redirected and standard error is a terminal, progress is shown there.
            """)

    @Flag(name: .customShort("d"), help: "Also print the secrets (a warning goes to standard error first).")
    var withSecrets = false
    @Flag(name: .customLong("json"), help: "Print one JSON array of the items instead (for scripts); with -d each item has its v_Data.")
    var json = false
    @Flag(name: .customLong("include-invisible"), help: "Also list the items marked invisible (kSecAttrIsInvisible).")
    var includeInvisible = false

    func run() throws {
        let command = Self.configuration.commandName!
        let client = try ItemCommandSupport.client(command: command)
        if withSecrets {
            FileHandle.standardError.write(Data("coffer: warning: printing the secrets of every item in this keychain\n".utf8))
        }
        var references: [(itemClass: String, reference: Data)] = []
        for itemClass in [QueryConstant.classGenericPassword, QueryConstant.classInternetPassword] {
            references += try Self.persistentReferences(of: itemClass, client: client, command: command).map { (itemClass, $0) }
        }
        let output = DumpOutput(json: json, withSecrets: withSecrets)
        let progress = isatty(STDOUT_FILENO) == 0 && isatty(STDERR_FILENO) == 1 ? ImportProgress(total: references.count, verb: "listed") : nil
        var invisible = 0
        for (index, entry) in references.enumerated() {
            defer { progress?.update(index + 1) }
            guard let item = try Self.item(entry.reference, of: entry.itemClass, withSecret: withSecrets, client: client, command: command) else {
                continue
            }
            if !includeInvisible, Self.isInvisible(item) {
                invisible += 1
                continue
            }
            try output.write(itemClass: entry.itemClass, attributes: item)
        }
        try output.finish()
        progress?.finish()
        if invisible > 0 {
            FileHandle.standardError.write(
                Data("coffer: \(invisible) invisible items not listed (the Secret Service's attribute postings); --include-invisible lists them\n".utf8))
        }
    }

    /// The persistent references of every item of `itemClass` (none when there is none).
    static func persistentReferences(of itemClass: String, client: any KeychainClient, command: String) throws -> [Data] {
        let query: QueryDictionary = [
            .string(QueryKey.itemClass): .string(itemClass),
            .string(QueryKey.matchLimit): .string(QueryConstant.matchLimitAll),
            .string(QueryKey.returnPersistentRef): .bool(true),
            .string(QueryKey.synchronizable): .string(QueryConstant.synchronizableAny),
        ]
        let result: KeychainValue?
        do {
            result = try client.blocking.copyMatching(query)
        } catch  where error.status == .itemNotFound {
            return []
        } catch {
            throw ItemCommandSupport.failure(command, error)
        }
        guard case .array(let values)? = result else { return [] }
        return values.compactMap { if case .data(let reference) = $0 { reference } else { nil } }
    }

    /// One item's attributes (and secret), read by its persistent reference; nil when it went since it was listed.
    static func item(
        _ reference: Data, of itemClass: String, withSecret: Bool, client: any KeychainClient, command: String
    ) throws -> [String: KeychainValue]? {
        var query: QueryDictionary = [
            .string(QueryKey.itemClass): .string(itemClass),
            .string(QueryKey.valuePersistentRef): .data(reference),
            .string(QueryKey.returnAttributes): .bool(true),
            .string(QueryKey.synchronizable): .string(QueryConstant.synchronizableAny),
        ]
        if withSecret { query[QueryKey.returnData] = .bool(true) }
        do {
            guard case .dictionary(let attributes)? = try client.blocking.copyMatching(query) else { return nil }
            return attributes
        } catch  where error.status == .itemNotFound {
            return nil
        } catch {
            throw ItemCommandSupport.failure(command, error)
        }
    }

    static func isInvisible(_ attributes: [String: KeychainValue]) -> Bool {
        switch attributes[QueryKey.isInvisible] {
        case .bool(let flag)?: flag
        case .number(let number)?: number != 0
        default: false
        }
    }
}

/// Writes a dump item by item: `security`'s text blocks, or a JSON array whose elements are written as they come.
final class DumpOutput {
    private let json: Bool
    private let withSecrets: Bool
    private var count = 0

    init(json: Bool, withSecrets: Bool) {
        self.json = json
        self.withSecrets = withSecrets
    }

    func write(itemClass: String, attributes: [String: KeychainValue]) throws {
        if json {
            let object = JSONOutput.item(itemClass: itemClass, attributes: attributes, withSecret: withSecrets)
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            FileHandle.standardOutput.write(Data((count == 0 ? "[" : ",").utf8) + data)
        } else {
            var text = ItemPrinter.describe(itemClass: itemClass, attributes: attributes) + "\n"
            if withSecrets, case .data(let secret)? = attributes[QueryKey.valueData] {
                text += "data:\n\(ItemPrinter.secretText(secret))\n"
            }
            FileHandle.standardOutput.write(Data((text + "\n").utf8))
        }
        count += 1
    }

    func finish() throws {
        if json { FileHandle.standardOutput.write(Data((count == 0 ? "[]\n" : "]\n").utf8)) }
    }
}
