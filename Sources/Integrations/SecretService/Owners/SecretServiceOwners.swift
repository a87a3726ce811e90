import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations
import ProgramIdentity

/// Who owns the Secret Service items of this keychain: the number of items of each owner group, and the program
/// each group stands for where it can be found. A client sees only the items of its own groups, so an item stored
/// by another program, or by the same program under another path (a Python upgrade), is invisible to it; this is
/// what says so, for `coffer apps owners`.
public struct SecretServiceOwners: Sendable {
    /// One owner and what it holds.
    public struct Owner: Sendable, Equatable {
        /// The access group recorded on the items; nil for items every program sees (stored before owners were
        /// recorded).
        public var group: String?
        /// How many items it owns.
        public var items: Int
        /// The program the group stands for: a registered program's path, or an executable whose unregistered
        /// group it is (found among the user's running programs and the executables on `PATH`); nil when none.
        public var program: String?
        /// Whether ``program`` is registered (its entry's first group is the owner).
        public var isRegistered: Bool
    }

    let client: any KeychainClient

    /// A listing over `client`'s keychain (the provider's own view: it sees every owner's items).
    public init(client: any KeychainClient) { self.client = client }

    /// Every owner, most items first. `candidatePaths` are the executables tried for unregistered groups
    /// (``UnregisteredPrograms/candidatePaths(environment:)``).
    public func owners(candidatePaths: [String]) throws(SecretServiceError) -> [Owner] {
        var counts: [String?: Int] = [:]
        do {
            for collection in try CollectionCatalogue(client: client).collections() {
                for record in try SecretItemStore(client: client, collection: collection.name).items() {
                    counts[record.owner, default: 0] += 1
                }
            }
        } catch {
            throw SecretServiceError("cannot read the Secret Service items: \(error)")
        }
        let registered = (try? client.sendBlocking(.appsList).appsResult()) ?? []
        let unregistered = UnregisteredPrograms.paths(of: Set(counts.keys.compactMap { $0 }), amongPaths: candidatePaths)
        return counts.map { group, items in
            if let group, let app = registered.first(where: { $0.accessGroups.first == group }) {
                return Owner(group: group, items: items, program: app.executablePath, isRegistered: true)
            }
            return Owner(group: group, items: items, program: group.flatMap { unregistered[$0] }, isRegistered: false)
        }
        .sorted { ($0.items, $0.group ?? "") > ($1.items, $1.group ?? "") }
    }
}
