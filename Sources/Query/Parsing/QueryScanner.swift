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
    static func scan(_ query: QueryDictionary, call: QueryCall) throws(KeychainStatus) -> ParsedQuery {
        try ClientChecks.check(query, call: call)
        let itemClass = try resolveClass(query)
        try checkKeyLimit(query, itemClass: itemClass)
        var parsed = ParsedQuery(itemClass: itemClass)
        for key in query.nonStringKeys {
            // A number key is looked up as an attribute and is never one; other key types are invalid.
            if case .number = key { throw .noSuchAttribute }
            if case .double = key { throw .noSuchAttribute }
            throw .param
        }
        for (key, value) in query.sortedStringEntries {
            try absorb(key: key, value: value, into: &parsed)
        }
        return parsed
    }

    /// G2/G3: the class from `kSecClass`, or else from a persistent reference.
    static func resolveClass(_ query: QueryDictionary) throws(KeychainStatus) -> ItemClass {
        var name = query[QueryKey.itemClass]?.stringValue
        if name == nil, let bytes = query[QueryKey.valuePersistentRef]?.dataValue {
            name = PersistentReference(data: bytes)?.classCode
        }
        guard let name else { throw .param }
        guard let itemClass = ItemClass(rawValue: name) else { throw .noSuchClass }
        return itemClass
    }

    /// G15: the class's schema entries plus the dictionary entries that are not among them must not exceed 128.
    static func checkKeyLimit(_ dictionary: QueryDictionary, itemClass: ItemClass) throws(KeychainStatus) {
        let schemaEntries = AttributeCatalogue.schemaEntryCount(for: itemClass)
        // Only a dictionary that could exceed the cap needs its keys classified.
        guard schemaEntries + dictionary.count > keyLimit else { return }
        let outsideSchema = dictionary.entries.keys.filter { key in
            guard let name = key.stringValue else { return true }
            return AttributeCatalogue.descriptor(for: name, in: itemClass) == nil
                && !AttributeCatalogue.internalSchemaNames.contains(name)
        }.count
        if schemaEntries + outsideSchema > keyLimit { throw .param }
    }

    private static func absorb(key: String, value: KeychainValue, into parsed: inout ParsedQuery) throws(KeychainStatus) {
        let length = key.utf16.count
        if length == 4 {
            try absorbAttribute(key: key, value: value, into: &parsed)
            return
        }
        guard length > 1, let first = key.first else { throw .param }
        switch first {
        case "c":
            // Only `class`; its value was resolved already, but must agree (a non-string or a different class → -25306).
            guard key == QueryKey.itemClass else { throw .param }
            guard value.stringValue == parsed.itemClass.rawValue else { throw .noSuchClass }
        case "m": try absorbMatch(key: key, value: value, into: &parsed)
        case "r": try absorbReturn(key: key, value: value, into: &parsed)
        case "u": try absorbUse(key: key, value: value, into: &parsed)
        case "v": try absorbValue(key: key, value: value, into: &parsed)
        case "f": break  // internal callback keys are ignored
        default: throw .param
        }
    }

    /// A four-character key: an attribute of the class (G4, G5, G9, G10, G14).
    static func absorbAttribute(key: String, value: KeychainValue, into parsed: inout ParsedQuery) throws(KeychainStatus) {
        if key == QueryKey.useDataProtectionKeychain { return }
        guard let descriptor = AttributeCatalogue.descriptor(for: key, in: parsed.itemClass) else {
            throw .noSuchAttribute
        }
        if descriptor.callerAccess == .forbidden { throw .param }
        if descriptor.kind == .sync, value == .string(QueryConstant.synchronizableAny) {
            parsed.synchronizableAny = true
            return
        }
        var coerced = try AttributeValue.coerce(value, to: descriptor.kind)
        switch descriptor.kind {
        case .access:
            guard let protection = ProtectionClass(rawValue: coerced.stringValue ?? "") else { throw .param }
            if parsed.accessControl != nil { throw .param }
            parsed.accessible = protection
        case .accessControl:
            guard case .accessControl(let control) = coerced else { throw .param }
            if parsed.accessible != nil { throw .param }
            parsed.accessControl = control
        case .sync:
            coerced = try normalizedSynchronizable(coerced)
        default:
            break
        }
        parsed.attributes[key] = coerced
    }

    /// `sync` as stored: 0 or 1. Apple keeps any number; Coffer treats every non-zero number as 1 and
    /// rejects text that is not an integer (-50), so the flag always has one meaning.
    static func normalizedSynchronizable(_ value: AttributeValue) throws(KeychainStatus) -> AttributeValue {
        guard let number = value.numberValue else { throw .param }
        return .number(number == 0 ? 0 : 1)
    }

    /// An `m…` key: known match keys are type-checked (G8), unknown ones accepted and ignored.
    private static func absorbMatch(key: String, value: KeychainValue, into parsed: inout ParsedQuery) throws(KeychainStatus) {
        parsed.matchKeys.insert(key)
        switch key {
        case QueryKey.matchLimit:
            parsed.matchLimit = try matchLimit(value)
        case QueryKey.matchPolicy:
            guard case .array = value else { throw .param }
        case QueryKey.matchValidOnDate:
            switch value {
            case .date, .null: break
            default: throw .param
            }
        case QueryKey.matchTrustedOnly:
            guard case .bool = value else { throw .param }
        case QueryKey.matchEmailAddressIfPresent:
            guard case .string = value else { throw .param }
        case QueryKey.matchHostOrSubdomainOfHost:
            guard case .string(let host) = value else { throw .param }
            parsed.hostOrSubdomainOf = host
        default:
            break
        }
    }

    /// G8: a number, `kSecMatchLimitOne` or `kSecMatchLimitAll`.
    private static func matchLimit(_ value: KeychainValue) throws(KeychainStatus) -> MatchLimit {
        switch value {
        case .number(let number):
            return .fromNumber(number)
        case .double(let real):
            guard let number = Int64(exactly: real.rounded(.towardZero)) else { throw .param }
            return .fromNumber(number)
        case .string(QueryConstant.matchLimitOne):
            return .one
        case .string(QueryConstant.matchLimitAll):
            return .all
        default:
            throw .param
        }
    }

    /// An `r…` key (G6, G7): the value must be a `CFBoolean`; an integer `NSNumber` is not one.
    private static func absorbReturn(key: String, value: KeychainValue, into parsed: inout ParsedQuery) throws(KeychainStatus) {
        guard case .bool(let enabled) = value else { throw .param }
        guard let option = ReturnOptions.option(forKey: key) else { throw .param }
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
    private static func absorbUse(key: String, value: KeychainValue, into parsed: inout ParsedQuery) throws(KeychainStatus) {
        switch key {
        case QueryKey.useItemList:
            parsed.usesItemList = true
        case QueryKey.useTombstones:
            parsed.useTombstones = try booleanLike(value)
        case QueryKey.useCredentialReference:
            guard case .data(let handle) = value else { throw .param }
            parsed.authentication.credentialReference = handle
        case QueryKey.useAuthenticationUI:
            guard case .string(let mode) = value else { throw .param }
            parsed.explicitAuthenticationUI =
                switch mode {
                case QueryConstant.authenticationUISkip: .skip
                case QueryConstant.authenticationUIFail: .fail
                default: .allow
                }
        case QueryKey.useAuthenticationContext:
            parsed.authentication.context = value
        case QueryKey.useOperationPrompt:
            guard case .string(let prompt) = value else { throw .param }
            parsed.authentication.operationPrompt = prompt
        case QueryKey.useNoAuthenticationUI:
            parsed.noAuthenticationUI = try booleanLike(value)
        case _ where QueryKey.entitledUseKeys.contains(key):
            throw .missingEntitlement
        default:
            throw .param
        }
    }

    /// A flag given as a boolean, a number (non-zero = true) or a numeric string, as Apple reads `u_Tomb`.
    private static func booleanLike(_ value: KeychainValue) throws(KeychainStatus) -> Bool {
        switch value {
        case .bool(let flag): return flag
        case .number(let number): return number != 0
        case .double(let real): return real != 0
        case .string(let text): return (Int32(text.trimmingCharacters(in: .whitespaces)) ?? 0) != 0
        default: throw .param
        }
    }

    /// A `v…` key (G6, A3, G12).
    private static func absorbValue(key: String, value: KeychainValue, into parsed: inout ParsedQuery) throws(KeychainStatus) {
        switch key {
        case QueryKey.valueData:
            guard case .data(let secret) = value else { throw .param }
            try SizeLimits.checkValueData(secret)
            parsed.valueData = secret
        case QueryKey.valuePersistentRef:
            guard case .data(let bytes) = value, let reference = PersistentReference(data: bytes) else {
                throw .param
            }
            guard reference.itemClass == parsed.itemClass else { throw .noSuchClass }
            parsed.persistentRef = reference
        default:
            // kSecValueRef was rejected by the client checks; anything else is unknown.
            throw .param
        }
    }
}
