import Foundation
import ItemStore
import KeychainModel
import Query

extension KeychainEngine {
    /// `SecItemDelete`: removes every matching item. Works in every lock state: rows are chosen by
    /// their blind indexes alone, without decrypting (a search with a filter the index cannot answer
    /// needs the class keys). Nothing matching is -25300 (rule D3). `trail`, when given, learns the items deleted.
    public func delete(_ request: DeleteRequest, caller: CallerContext, trail: ItemTrail? = nil) throws(EngineRefusal) {
        try checkAccess(caller, explicitGroup: request.search.accessGroup)
        var undecryptable: [StoredItem] = []
        defer { removeUndecryptable(undecryptable) }
        try mapped {
            try store.write { writer in
                let rows: [StoredItem]
                if ItemIndexing.isFullyIndexed(request.search) {
                    rows = try writer.select(ItemIndexing.selection(for: request.search, caller: caller, limit: nil))
                } else {
                    let outcome = try openMatches(request.search, caller: caller, limit: nil, loadData: false, reader: writer)
                    rows = outcome.matches.map(\.stored)
                    undecryptable = outcome.undecryptable
                }
                guard !rows.isEmpty else { throw EngineRefusal.nothingMatched(.d3) }
                _ = try writer.delete(rows)
                trail?.note(request.search.itemClass, references: rows.map { persistentReferenceData($0) })
            }
        }
    }
}
