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
    /// (§6.4): Skip leaves it out, Fail answers -25308, Allow answers -25330 (`errSecAuthNeeded`) and
    /// ``authenticationNeeded(for:caller:authorization:)`` tells what to ask the person for.
    public func copyMatching(
        _ request: SearchRequest, caller: CallerContext, authorization: ItemAuthorization = .none
    ) throws(KeychainStatus) -> KeychainValue? {
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
            guard !identities.matches.isEmpty else { throw .itemNotFound }
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
        guard !outcome.matches.isEmpty else { throw .itemNotFound }
        return ResultShaper.copyMatchingResult(items: outcome.matches.map(snapshot), request: request)
    }
}

extension KeychainEngine {
    /// What the person must prove before `search` can open the items it matches: the requirement of the
    /// first matching item that `authorization` does not meet; nil when there is none (any more).
    ///
    /// Asked after a call answered -25330 (`errSecAuthNeeded`): it selects and decrypts the attributes again,
    /// without any secret.
    public func authenticationNeeded(
        for search: SearchRequest, caller: CallerContext, authorization: ItemAuthorization
    ) -> AuthenticationRequirement? {
        var gathering = search
        gathering.authentication.ui = .skip
        if search.itemClass == .identity {
            return identityAuthenticationNeeded(for: gathering, caller: caller, authorization: authorization)
        }
        let requirements: [AuthenticationRequirement]? = try? store.read { reader in
            let selection = ItemIndexing.selection(for: gathering, caller: caller, limit: nil)
            var found: [AuthenticationRequirement] = []
            for row in try reader.select(selection) {
                guard let attributes = try? AttributeSet(decoding: reader.openAttributes(row)),
                    gathering.matches(attributes),
                    let requirement = ItemGate.requirement(of: attributes),
                    !requirement.isSatisfied(by: authorization.verified)
                else { continue }
                found.append(requirement)
                break
            }
            return found
        }
        return requirements?.first
    }
}
