import KeychainModel
import Query

/// The rules that judge an add against the searches elsewhere in the package that read what it wrote.
enum ProgramRules {
    static func check(_ calls: [KeychainCall]) -> [Finding] {
        let adds = calls.filter { $0.function == .add }
        let searches = calls.filter { $0.function != .add && $0.function != .createRandomKey }
        return adds.flatMap { uniqueness(of: $0, searches: searches) } + adds.flatMap { protectedReads(of: $0, searches: searches) }
    }

    /// An add that leaves part of the class's primary key out, while a search of the same class tells items
    /// apart by an attribute outside it that the add also sets.
    private static func uniqueness(of add: KeychainCall, searches: [KeychainCall]) -> [Finding] {
        guard let code = add.query.itemClassCode, let itemClass = ItemClass(rawValue: code) else { return [] }
        let principal: [String] =
            switch itemClass {
            case .genericPassword: [QueryKey.account, QueryKey.service]
            case .internetPassword: [QueryKey.account, QueryKey.server]
            default: []
            }
        let missing = principal.filter { add.query.entry($0) == nil }
        guard !missing.isEmpty else { return [] }
        let keyCodes = Set(AttributeCatalogue.descriptors(for: itemClass).filter { $0.flags.contains(.primaryKey) }.map(\.code))
        let classCodes = Set(AttributeCatalogue.descriptors(for: itemClass).map(\.code))
        // Attributes a search could tell items apart by: not the protection, which is no filter of identity.
        let protection: Set = [QueryKey.accessible, QueryKey.accessControl]
        let nonKey = add.query.entries.filter { classCodes.contains($0.code) && !keyCodes.contains($0.code) && !protection.contains($0.code) }
        for search in searches where search.query.itemClassCode == code && SequenceRules.sameItem(add, search) {
            guard let distinguishing = nonKey.first(where: { search.query.entry($0.code) != nil }) else { continue }
            let missingNames = missing.compactMap { AttributeCatalogue.descriptor(for: $0, in: itemClass)?.constantName }.joined(separator: " and ")
            let keyNames = ClassNames.identifyingAttributes(of: itemClass).compactMap(\.constantName).joined(separator: ", ")
            return [
                Finding(
                    .primaryKeyIncomplete,
                    "\(ClassNames.constant(itemClass)) added without \(missingNames), while \(search.function.rawValue) (line \(search.point.line)) tells items apart by \(distinguishing.constantName), which is not part of its primary key (\(keyNames)): a second add fails with errSecDuplicateItem",
                    at: add.point)
            ]
        }
        return []
    }

    /// Reads of an item the add protected with constraints (.userPresence, biometry, the passcode) that carry no
    /// authentication context and say nothing of the prompt.
    private static func protectedReads(of add: KeychainCall, searches: [KeychainCall]) -> [Finding] {
        guard case .accessControl(let control)? = add.query.entry(QueryKey.accessControl)?.value, let constraint = control.constraints.first else {
            return []
        }
        let saysHowToAsk = [QueryKey.useAuthenticationContext, QueryKey.useOperationPrompt, QueryKey.useAuthenticationUI, QueryKey.useNoAuthenticationUI]
        return searches.filter { search in
            search.function == .copyMatching && search.query.isTrue(QueryKey.returnData) && SequenceRules.sameItem(add, search)
                && add.query.itemClassCode == search.query.itemClassCode && saysHowToAsk.allSatisfy { search.query.entry($0) == nil }
        }.map { search in
            Finding(
                .userPresenceWithoutContext,
                "reads an item added with .\(constraint) (line \(add.point.line)) without kSecUseAuthenticationContext: every read asks the person, and where nobody can answer it fails with errSecInteractionNotAllowed",
                at: search.point)
        }
    }
}
