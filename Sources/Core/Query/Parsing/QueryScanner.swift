import Foundation
import KeychainModel

/// Classifies every key of a query dictionary the way Apple's daemon does (§2.1) and coerces the values.
///
/// Keys are visited in a fixed order (non-string keys, then string keys sorted), so a dictionary with
/// several faults always reports the same one; Apple's order follows CF hashing and is not defined.
enum QueryScanner {
    /// Apple's cap on a query's size (§2.1, G15).
    static let keyLimit = 128

    /// Runs the client checks, resolves the class and scans every key.
    static func scan(_ query: QueryDictionary, call: QueryCall) throws(QueryRejection) -> ParsedQuery {
        try ClientChecks.check(query, call: call)
        let itemClass = try resolveClass(query)
        try checkKeyLimit(query, itemClass: itemClass)
        var parsed = ParsedQuery(itemClass: itemClass)
        for key in query.nonStringKeys {
            throw nonStringKey(key)
        }
        for (key, value) in query.sortedStringEntries {
            try absorb(key: key, value: value, into: &parsed)
        }
        return parsed
    }

    /// A number key is looked up as an attribute and is never one (G4); other key types are invalid (G6).
    private static func nonStringKey(_ key: KeychainValue) -> QueryRejection {
        switch key {
        case .number, .double:
            .noSuchAttribute(.g4, key: nil, "a CFNumber key is looked up as an attribute, and no attribute is named by a number")
        default:
            .param(.g6, key: nil, "a key must be a CFString; got a \(key.typeDescription) key")
        }
    }

    /// G2/G3: the class from `kSecClass`, or else from a persistent reference.
    static func resolveClass(_ query: QueryDictionary) throws(QueryRejection) -> ItemClass {
        var name = query[QueryKey.itemClass]?.stringValue
        var source = QueryKey.itemClass
        if name == nil, let bytes = query[QueryKey.valuePersistentRef]?.dataValue {
            name = PersistentReference(data: bytes)?.classCode
            source = QueryKey.valuePersistentRef
        }
        guard let name else { throw missingClass(query) }
        guard let itemClass = ItemClass(rawValue: name) else {
            let named = AppleNames.classCode(name)
            throw .noSuchClass(
                .g3, key: source,
                source == QueryKey.itemClass
                    ? "kSecClass value \(named) is not a keychain item class"
                    : "kSecValuePersistentRef names \(named), which is not a keychain item class")
        }
        return itemClass
    }

    /// G2: neither a `kSecClass` string nor a persistent reference to take the class from.
    private static func missingClass(_ query: QueryDictionary) -> QueryRejection {
        if let value = query[QueryKey.itemClass] {
            return .wrongType(
                .g2, key: QueryKey.itemClass, expected: "a CFString such as kSecClassGenericPassword", got: value)
        }
        let fallback =
            query[QueryKey.valuePersistentRef] == nil
            ? "there is no kSecValuePersistentRef to take it from" : "kSecValuePersistentRef is not a valid reference"
        return .param(.g2, key: QueryKey.itemClass, "kSecClass is missing, and \(fallback)")
    }

    /// G15: the class's schema entries plus the dictionary entries that are not among them must not exceed 128.
    static func checkKeyLimit(_ dictionary: QueryDictionary, itemClass: ItemClass) throws(QueryRejection) {
        let schemaEntries = AttributeCatalogue.schemaEntryCount(for: itemClass)
        // Only a dictionary that could exceed the cap needs its keys classified.
        guard schemaEntries + dictionary.count > keyLimit else { return }
        let outsideSchema = dictionary.entries.keys.filter { key in
            guard let name = key.stringValue else { return true }
            return AttributeCatalogue.descriptor(for: name, in: itemClass) == nil
                && !AttributeCatalogue.internalSchemaNames.contains(name)
        }.count
        if schemaEntries + outsideSchema > keyLimit {
            throw .param(
                .g15, key: nil,
                "\(outsideSchema) keys outside the schema of \(AppleNames.itemClass(itemClass)), with its \(schemaEntries) "
                    + "schema entries, exceed Apple's cap of \(keyLimit)")
        }
    }

    private static func absorb(key: String, value: KeychainValue, into parsed: inout ParsedQuery) throws(QueryRejection) {
        let length = key.utf16.count
        if length == 4 {
            try absorbAttribute(key: key, value: value, into: &parsed)
            return
        }
        guard length > 1, let first = key.first else { throw .unknownKey(key) }
        switch first {
        case "c":
            // Only `class`; its value was resolved already, but must agree (a non-string or a different class → -25306).
            guard key == QueryKey.itemClass else { throw .unknownKey(key) }
            guard value.stringValue == parsed.itemClass.rawValue else {
                throw .noSuchClass(
                    nil, key: key,
                    "kSecClass must name \(AppleNames.itemClass(parsed.itemClass)), the class of kSecValuePersistentRef; "
                        + "got \(value.typeDescription)")
            }
        case "m": try absorbMatch(key: key, value: value, into: &parsed)
        case "r": try absorbReturn(key: key, value: value, into: &parsed)
        case "u": try absorbUse(key: key, value: value, into: &parsed)
        case "v": try absorbValue(key: key, value: value, into: &parsed)
        case "f": break  // internal callback keys are ignored
        default: throw .unknownKey(key)
        }
    }

    /// A four-character key: an attribute of the class (G4, G5, G9, G10, G14).
    static func absorbAttribute(key: String, value: KeychainValue, into parsed: inout ParsedQuery) throws(QueryRejection) {
        if key == QueryKey.useDataProtectionKeychain { return }
        guard let descriptor = AttributeCatalogue.descriptor(for: key, in: parsed.itemClass) else {
            throw .notAnAttribute(key, of: parsed.itemClass)
        }
        if descriptor.callerAccess == .forbidden { throw .notCallerSettable(key) }
        if descriptor.kind == .sync, value == .string(QueryConstant.synchronizableAny) {
            parsed.synchronizableAny = true
            return
        }
        var coerced = try AttributeValue.coerce(value, to: descriptor.kind, key: key)
        switch descriptor.kind {
        case .access:
            guard let protection = ProtectionClass(rawValue: coerced.stringValue ?? "") else {
                throw .notAProtectionClass(coerced.stringValue, key: key)
            }
            if parsed.accessControl != nil { throw .accessibleWithAccessControl(key: key) }
            parsed.accessible = protection
        case .accessControl:
            guard case .accessControl(let control) = coerced else { throw .notAnAccessControl(value) }
            if parsed.accessible != nil { throw .accessibleWithAccessControl(key: key) }
            parsed.accessControl = control
        case .sync:
            coerced = try normalizedSynchronizable(coerced)
        default:
            break
        }
        parsed.attributes[key] = coerced
    }

    /// `sync` as stored: 0 or 1. Apple keeps any number; Coffer treats every non-zero number as 1 and
    /// rejects text that is not an integer (-50, G5), so the flag always has one meaning.
    static func normalizedSynchronizable(_ value: AttributeValue) throws(QueryRejection) -> AttributeValue {
        guard let number = value.numberValue else {
            throw .param(
                .g5, key: QueryKey.synchronizable,
                "kSecAttrSynchronizable must be a CFBoolean, a CFNumber, an integer CFString or kSecAttrSynchronizableAny")
        }
        return .number(number == 0 ? 0 : 1)
    }

    /// An `m…` key: known match keys are type-checked (G8), unknown ones accepted and ignored.
    private static func absorbMatch(key: String, value: KeychainValue, into parsed: inout ParsedQuery) throws(QueryRejection) {
        parsed.matchKeys.insert(key)
        switch key {
        case QueryKey.matchLimit:
            parsed.matchLimit = try matchLimit(value)
        case QueryKey.matchPolicy:
            guard case .array = value else { throw .wrongType(.g8, key: key, expected: "a CFArray", got: value) }
        case QueryKey.matchValidOnDate:
            switch value {
            case .date, .null: break
            default: throw .wrongType(.g8, key: key, expected: "a CFDate or kCFNull", got: value)
            }
        case QueryKey.matchTrustedOnly:
            guard case .bool = value else { throw .wrongType(.g8, key: key, expected: "a CFBoolean", got: value) }
        case QueryKey.matchEmailAddressIfPresent:
            guard case .string = value else { throw .wrongType(.g8, key: key, expected: "a CFString", got: value) }
        case QueryKey.matchHostOrSubdomainOfHost:
            guard case .string(let host) = value else {
                throw .wrongType(.g8, key: key, expected: "a CFString", got: value)
            }
            parsed.hostOrSubdomainOf = host
        default:
            break
        }
    }

    /// G8: a number, `kSecMatchLimitOne` or `kSecMatchLimitAll`.
    private static func matchLimit(_ value: KeychainValue) throws(QueryRejection) -> MatchLimit {
        switch value {
        case .number(let number):
            return .fromNumber(number)
        case .double(let real):
            guard let number = Int64(exactly: real.rounded(.towardZero)) else {
                throw .param(.g8, key: QueryKey.matchLimit, "kSecMatchLimit is a CFNumber with no integer value")
            }
            return .fromNumber(number)
        case .string(QueryConstant.matchLimitOne):
            return .one
        case .string(QueryConstant.matchLimitAll):
            return .all
        case .string(let text):
            throw .param(
                .g8, key: QueryKey.matchLimit,
                "kSecMatchLimit must be a CFNumber, kSecMatchLimitOne or kSecMatchLimitAll; got \(AppleNames.quoted(text))")
        default:
            throw .wrongType(
                .g8, key: QueryKey.matchLimit, expected: "a CFNumber, kSecMatchLimitOne or kSecMatchLimitAll", got: value)
        }
    }

    /// An `r…` key (G6, G7): the value must be a `CFBoolean`; an integer `NSNumber` is not one.
    private static func absorbReturn(key: String, value: KeychainValue, into parsed: inout ParsedQuery) throws(QueryRejection) {
        guard let option = ReturnOptions.option(forKey: key) else { throw .unknownKey(key) }
        guard case .bool(let enabled) = value else {
            throw .wrongType(.g7, key: key, expected: "a CFBoolean (kCFBooleanTrue or kCFBooleanFalse)", got: value)
        }
        if enabled {
            parsed.returns.insert(option)
        } else {
            parsed.returns.remove(option)
        }
    }

    /// A `u…` key (G6); private keys that need an Apple entitlement → -34018.
    ///
    /// `kSecUseAuthenticationUI` must be a string (Apple's daemon: -50 otherwise); a string other than the
    /// three constants means Allow, as Apple only compares against Fail and Skip. `kSecUseOperationPrompt`
    /// must be a string and `kSecUseNoAuthenticationUI` a boolean-like flag (Coffer's choice; Apple's client
    /// hands them to LocalAuthentication unchecked).
    private static func absorbUse(key: String, value: KeychainValue, into parsed: inout ParsedQuery) throws(QueryRejection) {
        switch key {
        case QueryKey.useItemList:
            parsed.usesItemList = true
        case QueryKey.useTombstones:
            parsed.useTombstones = try booleanLike(value, key: key)
        case QueryKey.useCredentialReference:
            guard case .data(let handle) = value else { throw .wrongType(nil, key: key, expected: "CFData", got: value) }
            parsed.authentication.credentialReference = handle
        case QueryKey.useAuthenticationUI:
            guard case .string(let mode) = value else {
                throw .wrongType(nil, key: key, expected: "a CFString such as kSecUseAuthenticationUIFail", got: value)
            }
            parsed.explicitAuthenticationUI =
                switch mode {
                case QueryConstant.authenticationUISkip: .skip
                case QueryConstant.authenticationUIFail: .fail
                default: .allow
                }
        case QueryKey.useAuthenticationContext:
            guard let reference = AuthenticationContextReference(value) else {
                throw .wrongType(nil, key: key, expected: "an LAContext", got: value)
            }
            parsed.authentication.context = value
            parsed.contextInteractionNotAllowed = reference.interactionNotAllowed
        case QueryKey.useOperationPrompt:
            guard case .string(let prompt) = value else {
                throw .wrongType(nil, key: key, expected: "a CFString", got: value)
            }
            parsed.authentication.operationPrompt = prompt
        case QueryKey.useNoAuthenticationUI:
            parsed.noAuthenticationUI = try booleanLike(value, key: key)
        case _ where QueryKey.entitledUseKeys.contains(key):
            throw .missingEntitlement(
                nil, key: key, "\(AppleNames.key(key)) needs an Apple-private entitlement, which Coffer never grants")
        default:
            throw .unknownKey(key)
        }
    }

    /// A flag given as a boolean, a number (non-zero = true) or a numeric string, as Apple reads `u_Tomb`.
    private static func booleanLike(_ value: KeychainValue, key: String) throws(QueryRejection) -> Bool {
        switch value {
        case .bool(let flag): return flag
        case .number(let number): return number != 0
        case .double(let real): return real != 0
        case .string(let text): return (Int32(text.trimmingCharacters(in: .whitespaces)) ?? 0) != 0
        default: throw .wrongType(nil, key: key, expected: "a CFBoolean, CFNumber or CFString", got: value)
        }
    }

    /// A `v…` key (G6, A3, G12).
    private static func absorbValue(key: String, value: KeychainValue, into parsed: inout ParsedQuery) throws(QueryRejection) {
        switch key {
        case QueryKey.valueData:
            guard case .data(let secret) = value else { throw .wrongType(.a3, key: key, expected: "CFData", got: value) }
            try SizeLimits.checkValueData(secret)
            parsed.valueData = secret
        case QueryKey.valuePersistentRef:
            guard case .data(let bytes) = value else { throw .wrongType(nil, key: key, expected: "CFData", got: value) }
            guard let reference = PersistentReference(data: bytes) else {
                throw .param(
                    nil, key: key,
                    "kSecValuePersistentRef (\(bytes.count) bytes) is not a class code followed by a 16-byte UUID "
                        + "or an 8-byte row id")
            }
            guard reference.itemClass == parsed.itemClass else {
                throw .noSuchClass(
                    nil, key: key,
                    "kSecValuePersistentRef names \(AppleNames.classCode(reference.classCode)), but kSecClass is "
                        + AppleNames.itemClass(parsed.itemClass))
            }
            parsed.persistentRef = reference
        default:
            // kSecValueRef was rejected by the client checks; anything else is unknown.
            throw .unknownKey(key)
        }
    }
}
