import Foundation
import ItemStore
import KeychainModel
import Query

extension KeychainEngine {
    /// `SecItemCopyMatching`: the matching items shaped as the return flags and match limit ask.
    /// Nothing matching is -25300 (rule C1); a matching row locked away fails the call with -25308 (C5).
    public func copyMatching(_ request: SearchRequest, caller: CallerContext) throws(KeychainStatus) -> KeychainValue? {
        try checkAccess(caller, explicitGroup: request.accessGroup)
        let outcome = try mapped {
            try store.read { reader in
                try openMatches(
                    request, caller: caller, limit: request.limit.maximum,
                    loadData: request.returns.contains(.data), reader: reader)
            }
        }
        removeUndecryptable(outcome.undecryptable)
        guard !outcome.matches.isEmpty else { throw .itemNotFound }
        return ResultShaper.copyMatchingResult(items: outcome.matches.map(snapshot), request: request)
    }
}
