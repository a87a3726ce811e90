/// What the source makes known of a value in a query dictionary.
indirect enum TrackedValue: Sendable {
    /// An Apple constant's string (`kSecClassGenericPassword` → `genp`) or a string literal.
    case string(String)
    /// A Boolean literal.
    case bool(Bool)
    /// A nested dictionary (`kSecPrivateKeyAttrs`).
    case dictionary(TrackedDictionary)
    /// A `SecAccessControl` made by `SecAccessControlCreateWithFlags` in the source.
    case accessControl(AccessControlValue)
    /// Bytes written into the source: a string or array literal made into `Data` (a hard-coded secret).
    case hardCoded
    /// Anything else: a parameter, a call, data read at run time.
    case unknown

    /// Whether the value is text or bytes written into the source (a string constant counts: as `kSecValueData`
    /// its bytes are in the program).
    var isWrittenInTheSource: Bool {
        switch self {
        case .hardCoded, .string: true
        default: false
        }
    }

    /// The string, when the value is one.
    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

/// A `SecAccessControlCreateWithFlags(allocator, protection, flags, error)` the source shows.
struct AccessControlValue: Sendable {
    /// The protection class's constant name (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`), when it is one.
    let protectionName: String?
    /// The flags named (`userPresence`, `biometryAny`, `or`, `privateKeyUsage`…).
    let flags: [String]

    /// Flags that make the keychain ask the person (Apple's "constraints"): an item with them is read only after
    /// an authentication.
    var constraints: [String] {
        let asking: Set = [
            "userPresence", "biometryAny", "touchIDAny", "biometryCurrentSet", "touchIDCurrentSet", "devicePasscode", "watch", "companion",
            "applicationPassword",
        ]
        return flags.filter(asking.contains)
    }
}
