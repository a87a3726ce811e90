import ArgumentParser
import KeychainModel
import Query

/// `--synchronizable yes|no|any`: `kSecAttrSynchronizable` on an item command. Without it, an add stores a local item
/// and a find or delete looks at local items only, as Apple's keychain does when a query does not name the
/// attribute.
struct SynchronizableOption: ParsableArguments {
    enum Choice: String, ExpressibleByArgument, CaseIterable {
        case yes, no, any
    }

    @Option(
        name: .customLong("synchronizable"),
        help: ArgumentHelp(
            "kSecAttrSynchronizable: yes (the item follows you to your other devices, `coffer sync`), no, or any (find and delete only).",
            valueName: "yes|no|any"))
    var choice: Choice?

    /// The query entry, if the option was given.
    var entry: (KeychainValue, KeychainValue)? {
        switch choice {
        case nil: nil
        case .yes: (.string(QueryKey.synchronizable), .bool(true))
        case .no: (.string(QueryKey.synchronizable), .bool(false))
        case .any: (.string(QueryKey.synchronizable), .string(QueryConstant.synchronizableAny))
        }
    }

    /// `entries` with the option's entry added (or `fallback`'s, when the option was not given).
    func applied(to entries: [KeychainValue: KeychainValue], fallback: Choice? = nil) -> [KeychainValue: KeychainValue] {
        var entries = entries
        let option = choice == nil ? SynchronizableOption(choice: fallback) : self
        if let (key, value) = option.entry { entries[key] = value }
        return entries
    }

    init() {}
    init(choice: Choice?) { self.choice = choice }
}
