import Query

/// Which of the keys this module's own passes act on a call's dictionary holds, found with one look-up per key.
///
/// Most dictionaries hold none of them (a class, a few attributes, `kSecReturn…`, `kSecMatchLimit`). Each pass
/// then skips the look-ups it would make only to find out it has nothing to do: ``ItemPreparation`` (a reference
/// or an issuer to expand), ``CertificateMatchCall`` (certificate matches), ``PasswordItemReferences`` (a reference
/// asked for), ``KeyReferences/authentication(of:)`` (token-key settings) and ``MacOSShim`` (macOS code's keys).
/// A key that is no string, or a `kSecValueRef` (which becomes attributes any pass may act on), turns every pass on.
struct SpecialKeys: OptionSet, Sendable {
    let rawValue: UInt8

    /// `kSecValueRef`: a key or certificate becomes its attributes; a `SecKeychainItem` is macOS code's.
    static let valueRef = SpecialKeys(rawValue: 1 << 0)
    /// `kSecAttrIssuer`: a DER `Name` is normalized.
    static let issuer = SpecialKeys(rawValue: 1 << 1)
    /// `kSecMatchIssuers`, `kSecMatchPolicy`, `kSecMatchValidOnDate`, `kSecMatchTrustedOnly`.
    static let certificateMatch = SpecialKeys(rawValue: 1 << 2)
    /// `kSecReturnRef`: references of passwords are ``SecKeychainItem``s.
    static let returnRef = SpecialKeys(rawValue: 1 << 3)
    /// The `kSecUse…` keys a `SecKey` in the result takes its token settings from.
    static let keyAuthentication = SpecialKeys(rawValue: 1 << 4)
    /// The keys ``MacOSShim`` looks at.
    static let macOS = SpecialKeys(rawValue: 1 << 5)
    /// Every pass.
    static let all: SpecialKeys = [.valueRef, .issuer, .certificateMatch, .returnRef, .keyAuthentication, .macOS]

    /// The passes each key turns on.
    private static let passesByKey: [String: SpecialKeys] = {
        var passes: [String: SpecialKeys] = [QueryKey.valueRef: .all, CertificateItem.issuer: .issuer, QueryKey.returnRef: .returnRef]
        for key in [QueryKey.matchIssuers, QueryKey.matchPolicy, QueryKey.matchValidOnDate, QueryKey.matchTrustedOnly] {
            passes[key, default: []].insert(.certificateMatch)
        }
        for key in [
            QueryKey.useAuthenticationContext, QueryKey.useOperationPrompt, QueryKey.useAuthenticationUI, QueryKey.useNoAuthenticationUI,
        ] {
            passes[key, default: []].insert(.keyAuthentication)
        }
        for key in MacOSShim.keysWorthALook { passes[key, default: []].insert(.macOS) }
        return passes
    }()

    /// A bit per (first byte, last byte, length) of the keys in ``passesByKey``: a key whose bit is clear is none
    /// of them, known without hashing the key. The multipliers leave the bits of the common keys (`class`, `svce`,
    /// `acct`, `r_Data`, `m_Limit`, the attributes) clear, so that most dictionaries make no look-up at all.
    private static let candidateBits: UInt64 = passesByKey.keys.reduce(0) { $0 | candidateBit(of: $1) }

    private static func candidateBit(of key: String) -> UInt64 {
        let utf8 = key.utf8
        guard let first = utf8.first, let last = utf8.last else { return 1 }
        return 1 << ((UInt64(first) &* 11 &+ UInt64(last) &* 8 &+ UInt64(utf8.count)) & 63)
    }

    /// Whether `key` may be one of the keys this type looks for (false: it certainly is not).
    static func mayBeSpecial(_ key: String) -> Bool { candidateBits & candidateBit(of: key) != 0 }

    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The special keys of `query`.
    init(of query: QueryDictionary) {
        var found: SpecialKeys = []
        for key in query.entries.keys {
            guard case .string(let name) = key else {
                self = .all
                return
            }
            if Self.mayBeSpecial(name), let passes = Self.passesByKey[name] { found.formUnion(passes) }
        }
        self = found
    }
}
