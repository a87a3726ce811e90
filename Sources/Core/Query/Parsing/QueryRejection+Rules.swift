import KeychainModel

/// The rejections the parser raises, by status, and those several rules share. Each builds its reason only
/// when a query is refused.
extension QueryRejection {
    /// `errSecParam` (-50).
    static func param(_ rule: KeychainRule?, key: String?, _ reason: String) -> QueryRejection {
        QueryRejection(status: .param, rule: rule, key: key, reason: reason)
    }

    /// `errSecNoSuchAttr` (-25303).
    static func noSuchAttribute(_ rule: KeychainRule, key: String?, _ reason: String) -> QueryRejection {
        QueryRejection(status: .noSuchAttribute, rule: rule, key: key, reason: reason)
    }

    /// `errSecNoSuchClass` (-25306).
    static func noSuchClass(_ rule: KeychainRule?, key: String?, _ reason: String) -> QueryRejection {
        QueryRejection(status: .noSuchClass, rule: rule, key: key, reason: reason)
    }

    /// `errSecUnimplemented` (-4).
    static func unimplemented(_ rule: KeychainRule, key: String?, _ reason: String) -> QueryRejection {
        QueryRejection(status: .unimplemented, rule: rule, key: key, reason: reason)
    }

    /// `errSecMissingEntitlement` (-34018).
    static func missingEntitlement(_ rule: KeychainRule?, key: String?, _ reason: String) -> QueryRejection {
        QueryRejection(status: .missingEntitlement, rule: rule, key: key, reason: reason)
    }

    /// G4 (a query) or U4 (`attributesToUpdate`): `key` is not an attribute of `itemClass`.
    static func notAnAttribute(_ key: String, of itemClass: ItemClass, rule: KeychainRule = .g4) -> QueryRejection {
        .noSuchAttribute(rule, key: key, "\(AppleNames.key(key)) is not an attribute of \(AppleNames.itemClass(itemClass))")
    }

    /// G6: a key of no shape the keychain knows.
    static func unknownKey(_ key: String) -> QueryRejection {
        .param(.g6, key: key, "\(AppleNames.quoted(key)) is not a key the keychain knows")
    }

    /// A value of the wrong type for a key that is not an attribute (G7, G8, A3, U5, …).
    static func wrongType(_ rule: KeychainRule?, key: String, expected: String, got value: KeychainValue) -> QueryRejection {
        .param(rule, key: key, "\(AppleNames.key(key)) must be \(expected); got \(value.typeDescription)")
    }

    /// G9: `kSecAttrAccessible` and `kSecAttrAccessControl` together.
    static func accessibleWithAccessControl(key: String) -> QueryRejection {
        .param(
            .g9, key: key,
            "kSecAttrAccessible and kSecAttrAccessControl cannot both be given: the access control carries the protection")
    }

    /// G10: a `kSecAttrAccessible` value that is no keychain protection class.
    static func notAProtectionClass(_ value: String?, key: String) -> QueryRejection {
        let shown = value.map(AppleNames.constant) ?? "a value that is not a string"
        return .param(.g10, key: key, "\(AppleNames.key(key)) value \(shown) is not a protection class of keychain items")
    }

    /// G11: a `kSecAttrAccessControl` value that is not a `SecAccessControl`.
    static func notAnAccessControl(_ value: KeychainValue) -> QueryRejection {
        .wrongType(.g11, key: QueryKey.accessControl, expected: "a SecAccessControl", got: value)
    }

    /// G14: `kSecAttrAppClipItem`, which only the keychain sets.
    static func notCallerSettable(_ key: String) -> QueryRejection {
        .param(.g14, key: key, "\(AppleNames.key(key)) is set by the keychain and may not be passed")
    }

    /// A4 (add) or U13 (update): constraints and `kSecAttrSynchronizable` = true together.
    static func constrainedSynchronizable(rule: KeychainRule) -> QueryRejection {
        .param(
            rule, key: QueryKey.synchronizable,
            "an item whose kSecAttrAccessControl requires user authentication cannot have kSecAttrSynchronizable = true")
    }

    /// Coffer's size limits: `key` holds `size` bytes, more than `limit`.
    static func tooLarge(_ key: String?, size: Int, limit: Int, limitName: String) -> QueryRejection {
        let subject = key.map { AppleNames.key($0) } ?? "an attribute value"
        return .param(nil, key: key, "\(subject) is \(size) bytes; Coffer accepts at most \(limit) (\(limitName))")
    }
}
