import CofferLint
import Testing

/// The rules that judge an add against the searches that read it, and dictionaries followed through the package's
/// helpers, in one file or across files.
@Suite struct ProgramRuleTests {
    @Test func itemsToldApartByALabelOutsideThePrimaryKeyAreFlagged() {
        #expect(
            LintProbe.lines(
                """
                func save(_ token: Data, label: String) -> OSStatus {
                    let attributes: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "api", kSecAttrLabel as String: label,
                        kSecValueData as String: token,
                    ]
                    return SecItemAdd(attributes as CFDictionary, nil)
                }
                func load(label: String) -> OSStatus {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "api", kSecAttrLabel as String: label]
                    return SecItemCopyMatching(query as CFDictionary, nil)
                }
                """) == ["6 primary-key-incomplete"])
        #expect(
            LintProbe.lines(
                """
                func save(_ token: Data, user: String) -> OSStatus {
                    let attributes: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "api", kSecAttrAccount as String: user,
                        kSecAttrLabel as String: "API token for " + user, kSecValueData as String: token,
                    ]
                    return SecItemAdd(attributes as CFDictionary, nil)
                }
                func load(user: String) -> OSStatus {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "api", kSecAttrAccount as String: user]
                    return SecItemCopyMatching(query as CFDictionary, nil)
                }
                """
            ).isEmpty)
    }

    @Test func aUserPresenceItemReadWithoutAContextIsFlagged() {
        let wrapper = """
            func protect(_ secret: Data) -> OSStatus {
                let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .userPresence, nil)!
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "vault", kSecAttrAccount as String: "me",
                    kSecAttrAccessControl as String: access, kSecValueData as String: secret,
                ]
                return SecItemAdd(query as CFDictionary, nil)
            }
            func read(READ) -> OSStatus {
                var query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "vault", kSecAttrAccount as String: "me",
                    kSecReturnData as String: true,
                ]
                CONTEXT
                var result: CFTypeRef?
                return SecItemCopyMatching(query as CFDictionary, &result)
            }
            """
        #expect(
            LintProbe.lines(wrapper.replacingOccurrences(of: "READ", with: "").replacingOccurrences(of: "CONTEXT", with: ""))
                == ["16 user-presence-without-context"])
        #expect(
            LintProbe.lines(
                wrapper.replacingOccurrences(of: "READ", with: "context: LAContext").replacingOccurrences(
                    of: "CONTEXT", with: "query[kSecUseAuthenticationContext as String] = context")
            ).isEmpty)
    }

    @Test func helpersAndWrappersInOtherFilesAreFollowed() {
        let files = [
            "Keychain/Queries.swift": """
            enum Queries {
                static let service = "com.example.app"
                static func base(account: String) -> [String: Any] {
                    [kSecClass as String: kSecClassInternetPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
                }
            }
            """,
            "Keychain/Store.swift": """
            struct Store {
                var common: [String: Any] { [kSecAttrAccessible as String: kSecAttrAccessibleAlways] }

                func add(_ attributes: [String: Any]) throws {
                    var query = attributes
                    query.merge(common) { $1 }
                    let status = SecItemAdd(query as CFDictionary, nil)
                    guard status == errSecSuccess else { throw StoreError(status) }
                }
            }
            """,
            "App/Login.swift": """
            func remember(account: String, secret: Data) throws {
                var attributes = Queries.base(account: account)
                attributes[kSecValueData as String] = secret
                try Store().add(attributes)
            }
            """,
        ]
        // The class comes from one file's helper, the wrapper and its deprecated protection from another: the
        // internet password's service is found where it was written, the protection where the wrapper adds it.
        #expect(LintProbe.lines(files) == ["Keychain/Queries.swift:4 attribute-not-in-class", "Keychain/Store.swift:2 accessible-always"])
        var fixed = files
        fixed["Keychain/Queries.swift"] = files["Keychain/Queries.swift"]?.replacingOccurrences(
            of: "kSecClassInternetPassword", with: "kSecClassGenericPassword")
        #expect(LintProbe.lines(fixed) == ["Keychain/Store.swift:2 accessible-always"])
    }
}
