import KeychainModel
import Query
import Synchronization

/// Whether a store moved the agent's keys stored before they lived in the owner's group.
final class LegacyAgentKeys: Sendable {
    private let state = Mutex(false)

    /// Whether they were moved.
    var moved: Bool {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
}

extension KeychainAgentStore {
    /// Moves the agent's keys stored before they lived in the owner's group (in the group of the `coffer` command
    /// that ran the agent) into it, once per store: afterwards only the owner's connections reach them.
    func moveLegacyKeysOnce() throws(AgentRefusal) {
        guard !legacyKeys.moved else { return }
        let query = KeychainAttributes.keyQuery(returnData: false, [:])
        let legacy = try KeychainAttributes.search(query, on: client).filter { item in
            item.data(QueryKey.applicationTag).flatMap(AgentKeyTag.init) != nil && item.string(QueryKey.accessGroup) != Self.accessGroup
        }
        for item in legacy {
            guard let label = item.data(QueryKey.applicationLabel), let tag = item.data(QueryKey.applicationTag),
                let group = item.string(QueryKey.accessGroup)
            else { continue }
            do {
                try client.blocking.update(
                    [
                        .string(QueryKey.itemClass): .string(QueryConstant.classKey), .string(QueryKey.applicationLabel): .data(label),
                        .string(QueryKey.applicationTag): .data(tag), .string(QueryKey.accessGroup): .string(group),
                    ],
                    attributesToUpdate: [.string(QueryKey.accessGroup): .string(Self.accessGroup)])
            } catch  where error.status == .itemNotFound {
                continue  // both halves moved with the first of them
            } catch  where error.status == .missingEntitlement {
                throw .ownerAccessMissing
            } catch {
                throw AgentRefusal("the keychain did not move an agent key into the owner's group (\(error))")
            }
        }
        legacyKeys.moved = true
    }
}
