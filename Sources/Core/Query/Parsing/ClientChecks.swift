import KeychainModel

/// Rules Apple's client library enforces before the daemon parses anything (§3.2 order of evaluation).
enum ClientChecks {
    /// G11, G12/A8, G18, G22/U14/D6 on a query dictionary, and A4 on an add (the reference lists A4 for
    /// SecItemAdd only; for SecItemUpdate the changes are checked by ``checkChanges(_:query:)``, U13).
    static func check(_ query: QueryDictionary, call: QueryCall) throws(QueryRejection) {
        try checkAccessControlType(query)
        // G12 / A8: Coffer has no item references yet, and password items can never be added or found by
        // reference, so any kSecValueRef is an unsupported reference type.
        if query[QueryKey.valueRef] != nil {
            throw .param(.g12, key: QueryKey.valueRef, "kSecValueRef is not supported: Coffer has no item references")
        }
        // G18: an authentication context and a credential reference together.
        if query[QueryKey.useAuthenticationContext] != nil, query[QueryKey.useCredentialReference] != nil {
            throw .param(
                .g18, key: QueryKey.useCredentialReference,
                "kSecUseAuthenticationContext and kSecUseCredentialReference cannot be used together")
        }
        // G22 / U14 / D6: Skip is for SecItemCopyMatching only.
        if call != .search, query[QueryKey.useAuthenticationUI] == .string(QueryConstant.authenticationUISkip) {
            throw skipOutsideSearch(call)
        }
        if call == .add {
            try checkConstrainedSynchronizable(query, synchronizable: query[QueryKey.synchronizable], rule: .a4)
        }
    }

    /// G11, A4/U13 on `SecItemUpdate`'s `attributesToUpdate`; the query's `sync = true` also counts for U13.
    static func checkChanges(_ changes: QueryDictionary, query: QueryDictionary) throws(QueryRejection) {
        try checkAccessControlType(changes)
        let queryIsSynchronizable = query[QueryKey.synchronizable] == .bool(true)
        try checkConstrainedSynchronizable(
            changes, synchronizable: queryIsSynchronizable ? .bool(true) : changes[QueryKey.synchronizable],
            rule: .u13)
    }

    /// G11: `kSecAttrAccessControl` must be a `SecAccessControl`.
    private static func checkAccessControlType(_ dictionary: QueryDictionary) throws(QueryRejection) {
        if let value = dictionary[QueryKey.accessControl], case .accessControl = value {
            return
        } else if let value = dictionary[QueryKey.accessControl] {
            throw .notAnAccessControl(value)
        }
    }

    /// A4 / U13: an access control with constraints may not be combined with `kSecAttrSynchronizable` =
    /// `kCFBooleanTrue` (exactly the boolean, as Apple's client compares it; the number 1 passes).
    private static func checkConstrainedSynchronizable(
        _ dictionary: QueryDictionary, synchronizable: KeychainValue?, rule: KeychainRule
    ) throws(QueryRejection) {
        guard case .accessControl(let control)? = dictionary[QueryKey.accessControl], control.hasConstraints else {
            return
        }
        if synchronizable == .bool(true) { throw .constrainedSynchronizable(rule: rule) }
    }

    /// G22 (add), U14 (update) or D6 (delete): `kSecUseAuthenticationUISkip` outside a search.
    private static func skipOutsideSearch(_ call: QueryCall) -> QueryRejection {
        let (rule, function): (KeychainRule, String) =
            switch call {
            case .add: (.g22, "SecItemAdd")
            case .updateQuery: (.u14, "SecItemUpdate")
            case .delete, .search: (.d6, "SecItemDelete")  // never .search, where Skip is valid
            }
        return .param(
            rule, key: QueryKey.useAuthenticationUI,
            "kSecUseAuthenticationUISkip is for SecItemCopyMatching only, not \(function)")
    }
}
