import Foundation
import KeychainKeys
import KeychainClient
import KeychainOperations
import Query

/// Converts between the Foundation objects callers pass and get back, and the engine's ``KeychainValue``s.
///
/// It decides nothing: every value is carried over with its CF type, and the engine's parser applies
/// Apple's rules to it. The only work of its own is what Swift on Linux needs: unwrapping optionals that
/// reach a dictionary through `Any` (`kCFBooleanTrue` is a `CFBoolean!`), and turning ``SecAccessControl``
/// objects into the engine's ``AccessControl`` values and back.
enum ValueBridge {
    /// A caller's dictionary as the engine's ``QueryDictionary``.
    static func query(_ dictionary: NSDictionary) -> QueryDictionary {
        PlainDictionaryReader.query(dictionary) ?? generalQuery(dictionary)
    }

    /// ``query(_:)`` for any dictionary, through Foundation's own reading (the objects as `Any`s).
    static func generalQuery(_ dictionary: NSDictionary) -> QueryDictionary {
        // One pass over the dictionary's storage; iterating it looks every key up again.
        var keys: [Any] = []
        var values: [Any] = []
        dictionary.getObjects(&values, andKeys: &keys, count: dictionary.count)
        var entries: [KeychainValue: KeychainValue] = Dictionary(minimumCapacity: keys.count)
        for (key, value) in zip(keys, values) {
            entries[self.value(of: key)] = self.value(of: value)
        }
        return QueryDictionary(entries)
    }

    /// One value as the engine sees it.
    static func value(of object: Any) -> KeychainValue {
        if let common = KeychainValue.bridgingCommonScalar(object) { return common }
        guard let unwrapped = unwrapOptional(object) else { return .null }
        if let control = unwrapped as? SecAccessControl { return .accessControl(control.accessControl) }
        if let key = unwrapped as? SecKey { return .itemReference(key.handle.itemReference) }
        if let certificate = unwrapped as? SecCertificate { return .itemReference(certificate.itemReference) }
        if let identity = unwrapped as? SecIdentity { return .itemReference(identity.itemReference) }
        // A nested dictionary (`kSecPrivateKeyAttrs`) may hold this module's objects too.
        if let nested = unwrapped as? [String: Any], nested.values.contains(where: isModuleObject) {
            return .dictionary(nested.mapValues { value(of: $0) })
        }
        if let context = unwrapped as? any AuthenticationContextProviding { return context.authenticationContextReference.keychainValue }
        return KeychainValue(bridging: unwrapped)
    }

    /// An engine result as the object `SecItemCopyMatching` / `SecItemAdd` hand out: `NSData`, `NSString`,
    /// `NSNumber` (booleans as the boolean `NSNumber`), `NSDate`, `NSNull`, `NSUUID`, `NSArray`, `NSDictionary`,
    /// ``SecAccessControl``, ``SecKey`` (a key's reference; `NSNull` when no `SecKey` can be made of it) or ``SecCertificate``
    /// (a certificate's reference; `NSNull` when its bytes are no certificate), so that `as? Data`,
    /// `as? [String: Any]`, `as? [[String: Any]]`, `as? [Data]` and `as? NSDictionary` all work.
    static func object(_ value: KeychainValue) -> AnyObject {
        object(value, keys: TokenKeyAuthentication())
    }

    /// ``object(_:)``, with the token-key settings a `SecKey` in the result takes from its search.
    static func object(_ value: KeychainValue, keys authentication: TokenKeyAuthentication) -> AnyObject {
        result(value, keys: authentication) ?? NSNull()
    }

    /// A search's result as ``object(_:keys:)`` makes it, but for a reference no object can be made of (a key
    /// item of a kind `SecKey` does not have here, such as the post-quantum keys the keychain keeps): nil for it,
    /// and it is left out of arrays and dictionaries, as Apple's `SecItemResultProcess` leaves out a result whose
    /// reference came back empty. Code that casts a search's references (`as! [SecKey]`) never meets a stranger.
    static func result(_ value: KeychainValue, keys authentication: TokenKeyAuthentication = TokenKeyAuthentication()) -> AnyObject? {
        switch value {
        case .string(let text): return NSString(string: text)
        case .data(let bytes): return ResultData(copying: bytes)
        case .number(let number): return NSNumber(value: number)
        case .double(let number): return NSNumber(value: number)
        case .bool(let flag): return NSNumber(value: flag)
        case .date(let date): return NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        case .null, .unsupported: return NSNull()
        case .uuid(let uuid): return NSUUID(uuidString: uuid.uuidString) ?? NSNull()
        case .array(let elements): return NSArray(array: elements.compactMap { result($0, keys: authentication) })
        case .dictionary(let entries):
            return NSDictionary(dictionary: entries.compactMapValues { result($0, keys: authentication) })
        case .accessControl(let control): return SecAccessControl(control)
        case .itemReference(let reference):
            if reference.itemClass == .certificate { return SecCertificate(reference: reference) ?? NSNull() }
            if reference.itemClass == .identity {
                return SecIdentity(reference: reference, authentication: authentication) ?? NSNull()
            }
            return KeyReferences.key(from: reference, authentication: authentication)
        }
    }

    /// Whether `object` is one of the objects only this module bridges (access controls, keys, certificates, contexts).
    private static func isModuleObject(_ object: Any) -> Bool {
        guard let unwrapped = unwrapOptional(object) else { return false }
        return unwrapped is SecAccessControl || unwrapped is SecKey || unwrapped is SecCertificate || unwrapped is SecIdentity
            || unwrapped is any AuthenticationContextProviding
    }

    /// The value inside any number of `Optional` layers; nil for `nil`.
    private static func unwrapOptional(_ value: Any) -> Any? {
        guard let optional = value as? any OptionalValue else { return value }
        return optional.unwrappedAny.flatMap(unwrapOptional)
    }
}

/// `Optional`, seen through `Any`.
private protocol OptionalValue {
    var unwrappedAny: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var unwrappedAny: Any? { map { $0 as Any } }
}
