import KeychainModel

/// Rules Apple's client library enforces before the daemon parses anything (§3.2 order of evaluation).
enum ClientChecks {
    /// G11, G12/A8, G18, G22/U14/D6 on a query dictionary, and A4 on an add (the reference lists A4 for
    /// SecItemAdd only; for SecItemUpdate the changes are checked by ``checkChanges(_:query:)``, U13).
    static func check(_ query: QueryDictionary, call: QueryCall) throws(KeychainStatus) {
        try checkAccessControlType(query)
        // G12 / A8: Coffer has no item references yet, and password items can never be added or found by
        // reference, so any kSecValueRef is an unsupported reference type.
        if query[QueryKey.valueRef] != nil { throw .param }
        // G18: an authentication context and a credential reference together.
        if query[QueryKey.useAuthenticationContext] != nil, query[QueryKey.useCredentialReference] != nil {
            throw .param
        }
        // G22 / U14 / D6: Skip is for SecItemCopyMatching only.
        if call != .search, query[QueryKey.useAuthenticationUI] == .string(QueryConstant.authenticationUISkip) {
            throw .param
        }
        if call == .add {
            try checkConstrainedSynchronizable(query, synchronizable: query[QueryKey.synchronizable])
        }
    }

    /// G11, A4/U13 on `SecItemUpdate`'s `attributesToUpdate`; the query's `sync = true` also counts for U13.
    static func checkChanges(_ changes: QueryDictionary, query: QueryDictionary) throws(KeychainStatus) {
        try checkAccessControlType(changes)
        let queryIsSynchronizable = query[QueryKey.synchronizable] == .bool(true)
        try checkConstrainedSynchronizable(
            changes, synchronizable: queryIsSynchronizable ? .bool(true) : changes[QueryKey.synchronizable])
    }

    /// G11: `kSecAttrAccessControl` must be a `SecAccessControl`.
    private static func checkAccessControlType(_ dictionary: QueryDictionary) throws(KeychainStatus) {
        if let value = dictionary[QueryKey.accessControl], case .accessControl = value {
            return
        } else if dictionary[QueryKey.accessControl] != nil {
            throw .param
        }
    }

    /// A4 / U13: an access control with constraints may not be combined with `kSecAttrSynchronizable` =
    /// `kCFBooleanTrue` (exactly the boolean, as Apple's client compares it; the number 1 passes).
    private static func checkConstrainedSynchronizable(
        _ dictionary: QueryDictionary, synchronizable: KeychainValue?
    ) throws(KeychainStatus) {
        guard case .accessControl(let control)? = dictionary[QueryKey.accessControl], control.hasConstraints else {
            return
        }
        if synchronizable == .bool(true) { throw .param }
    }
}
