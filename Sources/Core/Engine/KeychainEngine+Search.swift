import Foundation
import ItemStore
import KeychainModel
import Query

extension KeychainEngine {
    /// `SecItemCopyMatching`: the matching items shaped as the return flags and match limit ask.
    /// Nothing matching is -25300 (rule C1); a matching row locked away fails the call with -25308 (C5).
    ///
    /// Any item whose access control constrains reading is opened only with proofs in `authorization` that
    /// meet it, even when only attributes are asked for (§6.3); otherwise the request's UI setting decides
    /// (§6.4): Skip leaves it out, Fail answers -25308, Allow answers -25330 (`errSecAuthNeeded`), the refusal
    /// carrying what to ask the person for (``EngineRefusal/requirement``). `trail`, when given, learns the items
    /// returned and whether their secrets were read.
    public func copyMatching(
        _ request: SearchRequest, caller: CallerContext, authorization: ItemAuthorization = .none, trail: ItemTrail? = nil
    ) throws(EngineRefusal) -> KeychainValue? {
        try checkAccess(caller, explicitGroup: request.accessGroup)
        if request.itemClass == .identity {
            let identities = try mapped {
                try store.read { reader in
                    try openIdentities(
                        request, caller: caller, limit: request.limit.maximum, loadData: request.needsData, reader: reader,
                        authorization: authorization)
                }
            }
            removeUndecryptable(identities.undecryptable)
            guard !identities.matches.isEmpty else { throw .nothingMatched(.c1) }
            trail?.note(.identity, references: [], secretRead: request.needsData)
            return ResultShaper.copyMatchingResult(items: identities.matches, request: request)
        }
        let outcome = try mapped {
            try store.read { reader in
                try openMatches(
                    request, caller: caller, limit: request.limit.maximum,
                    loadData: request.needsData, reader: reader, authorization: authorization,
                    keepingOnlyIdentity: request.returns.isSubset(of: .persistentRef))
            }
        }
        removeUndecryptable(outcome.undecryptable)
        guard !outcome.matches.isEmpty else { throw .nothingMatched(.c1) }
        trail?.note(request.itemClass, references: outcome.matches.map { persistentReferenceData($0.stored) }, secretRead: request.needsData)
        return ResultShaper.copyMatchingResult(items: outcome.matches.map(snapshot), request: request)
    }
}
