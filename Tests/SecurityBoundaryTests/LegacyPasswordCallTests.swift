import Foundation
import Security
import Testing

/// A command-line tool's generic-password code as it is written for macOS, unchanged.
private struct LegacyGenericPasswords {
    let service: String

    func add(_ password: String, account: String, item: UnsafeMutablePointer<SecKeychainItem?>? = nil) -> OSStatus {
        SecKeychainAddGenericPassword(
            nil, UInt32(service.utf8.count), service, UInt32(account.utf8.count), account,
            UInt32(password.utf8.count), password, item)
    }

    /// The status, the password (nil unless found) and the item.
    func find(account: String) -> (status: OSStatus, password: String?, item: SecKeychainItem?) {
        var length: UInt32 = 0
        var data: UnsafeMutableRawPointer?
        var item: SecKeychainItem?
        let status = SecKeychainFindGenericPassword(
            nil, UInt32(service.utf8.count), service, UInt32(account.utf8.count), account, &length, &data, &item)
        guard status == errSecSuccess, let data else { return (status, nil, item) }
        defer { SecKeychainItemFreeContent(nil, data) }
        return (status, String(decoding: Data(bytes: data, count: Int(length)), as: UTF8.self), item)
    }
}

/// macOS's legacy password calls (`SecKeychainAddGenericPassword` and the others) with Apple's statuses,
/// over the same items as the `SecItem…` calls.
@Suite(.timeLimit(.minutes(10))) struct LegacyPasswordCallTests {
    private let tool = LegacyGenericPasswords(service: "com.example.tool")

    private func secItemSearch(_ account: String, _ extra: [String: Any] = [:]) -> [String: Any] {
        genericPasswordSearch(service: "com.example.tool", account: account, extra)
    }

    @Test(arguments: BoundaryTransport.allCases) func addThenFindReturnsThePasswordAndTheItem(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            var added: SecKeychainItem?
            #expect(tool.add("hunter2", account: "alice", item: &added) == errSecSuccess)
            #expect(added != nil)
            let found = tool.find(account: "alice")
            #expect(found.status == errSecSuccess)
            #expect(found.password == "hunter2")
            #expect(found.item != nil)
            // The same item: equal by value, with one hash, as CFEqual makes them on macOS.
            #expect(found.item == added)
            #expect(Set([found.item, added].compactMap { $0 }).count == 1)
            if let item = found.item { #expect(CFGetTypeID(item) == SecKeychainItemGetTypeID()) }

            // Only the length, only the item, nothing at all.
            var length: UInt32 = 0
            #expect(SecKeychainFindGenericPassword(nil, 16, "com.example.tool", 5, "alice", &length, nil, nil) == errSecSuccess)
            #expect(length == 7)
            var item: SecKeychainItem?
            #expect(SecKeychainFindGenericPassword(nil, 16, "com.example.tool", 5, "alice", nil, nil, &item) == errSecSuccess)
            #expect(item == added)
            #expect(SecKeychainFindGenericPassword(nil, 16, "com.example.tool", 5, "alice", nil, nil, nil) == errSecSuccess)
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func duplicateAddAndMissingFindGetApplesStatuses(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            #expect(tool.add("one", account: "bob") == errSecSuccess)
            #expect(tool.add("two", account: "bob") == errSecDuplicateItem)  // -25299
            #expect(tool.find(account: "bob").password == "one")
            // Not found: -25300, and the out-parameters are left as they were.
            var length: UInt32 = 99
            var data: UnsafeMutableRawPointer?
            var item: SecKeychainItem?
            #expect(SecKeychainFindGenericPassword(nil, 16, "com.example.tool", 7, "nobody!", &length, &data, &item) == errSecItemNotFound)
            #expect(length == 99)
            #expect(data == nil)
            #expect(item == nil)
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func invalidArgumentsGetStatusesNotCrashes(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            #expect(tool.add("pw", account: "carol") == errSecSuccess)
            // keychainOrArray must be a keychain or an array of them.
            let notAKeychain = NSString(string: "login.keychain")
            #expect(SecKeychainFindGenericPassword(notAKeychain, 16, "com.example.tool", 5, "carol", nil, nil, nil) == errSecParam)
            #expect(SecKeychainFindGenericPassword(NSArray(array: [notAKeychain]), 0, nil, 0, nil, nil, nil, nil) == errSecInvalidKeychain)
            #expect(SecKeychainFindGenericPassword(NSArray(), 0, nil, 0, nil, nil, nil, nil) == errSecItemNotFound)
            // Nil names with zero lengths match everything on find; a length with a nil name is ignored.
            #expect(SecKeychainFindGenericPassword(nil, 0, nil, 0, nil, nil, nil, nil) == errSecSuccess)
            #expect(SecKeychainFindGenericPassword(nil, 12, nil, 0, nil, nil, nil, nil) == errSecSuccess)
            // An attribute list with entries but no array, a number of the wrong size, a tag of no password item.
            var item: SecKeychainItem?
            #expect(SecKeychainFindGenericPassword(nil, 16, "com.example.tool", 5, "carol", nil, nil, &item) == errSecSuccess)
            guard let item else { return }
            var broken = SecKeychainAttributeList(count: 1, attr: nil)
            #expect(SecKeychainItemModifyAttributesAndData(item, &broken, 0, nil) == errSecParam)
            var port: UInt16 = 80
            withUnsafeMutablePointer(to: &port) { pointer in
                var attribute = SecKeychainAttribute(tag: 0x706F_7274, length: 2, data: UnsafeMutableRawPointer(pointer))  // 'port'
                var list = SecKeychainAttributeList(count: 1, attr: &attribute)
                #expect(SecKeychainItemModifyAttributesAndData(item, &list, 0, nil) == errSecParam)
            }
            var unknown = SecKeychainAttribute(tag: 0x7A7A_7A7A, length: 0, data: nil)  // 'zzzz'
            var unknownList = SecKeychainAttributeList(count: 1, attr: &unknown)
            #expect(SecKeychainItemModifyAttributesAndData(item, &unknownList, 0, nil) == errSecNoSuchAttr)
            // Nothing to change, nothing to free.
            #expect(SecKeychainItemModifyAttributesAndData(item, nil, 0, nil) == errSecSuccess)
            #expect(SecKeychainItemFreeContent(nil, nil) == errSecSuccess)
            #expect(tool.find(account: "carol").password == "pw")
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func modifyDataThenFindSeesTheNewData(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            var item: SecKeychainItem?
            #expect(tool.add("old", account: "dave", item: &item) == errSecSuccess)
            guard let item else { return }
            let new = "new password"
            #expect(SecKeychainItemModifyAttributesAndData(item, nil, UInt32(new.utf8.count), new) == errSecSuccess)
            let found = tool.find(account: "dave")
            #expect(found.password == "new password")
            #expect(found.item == item)  // the same item after the change
            var data: CFTypeRef?
            #expect(SecItemCopyMatching(secItemSearch("dave", [kSecReturnData as String: true]) as CFDictionary, &data) == errSecSuccess)
            #expect(data as? Data == Data("new password".utf8))
            // The older name does the same.
            #expect(SecKeychainItemModifyContent(item, nil, 5, "third") == errSecSuccess)
            #expect(tool.find(account: "dave").password == "third")
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func modifyAttributesThroughAnAttributeList(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            var item: SecKeychainItem?
            #expect(tool.add("pw", account: "erin", item: &item) == errSecSuccess)
            guard let item else { return }
            var account = Array("erin2".utf8)
            var comment = Array("moved".utf8)
            let status = account.withUnsafeMutableBytes { accountBytes in
                comment.withUnsafeMutableBytes { commentBytes in
                    var attributes = [
                        SecKeychainAttribute(tag: 0x6163_6374, length: 5, data: accountBytes.baseAddress),  // 'acct'
                        SecKeychainAttribute(tag: 0x6963_6D74, length: 5, data: commentBytes.baseAddress),  // 'icmt'
                    ]
                    return attributes.withUnsafeMutableBufferPointer { buffer in
                        var list = SecKeychainAttributeList(count: 2, attr: buffer.baseAddress)
                        return SecKeychainItemModifyAttributesAndData(item, &list, 0, nil)
                    }
                }
            }
            #expect(status == errSecSuccess)
            #expect(tool.find(account: "erin").status == errSecItemNotFound)
            let found = tool.find(account: "erin2")
            #expect(found.password == "pw")
            #expect(found.item == item)
            var attributes: CFTypeRef?
            #expect(SecItemCopyMatching(secItemSearch("erin2", [kSecReturnAttributes as String: true]) as CFDictionary, &attributes) == errSecSuccess)
            #expect((attributes as? [String: Any])?[kSecAttrComment as String] as? String == "moved")
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func deleteThenFindIsNotFound(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            var item: SecKeychainItem?
            #expect(tool.add("pw", account: "frank", item: &item) == errSecSuccess)
            #expect(tool.add("pw", account: "kept") == errSecSuccess)
            guard let item else { return }
            #expect(SecKeychainItemDelete(item) == errSecSuccess)
            #expect(tool.find(account: "frank").status == errSecItemNotFound)
            #expect(SecItemCopyMatching(secItemSearch("frank") as CFDictionary, nil) == errSecItemNotFound)
            // The reference outlives its item: deleting or changing it again finds nothing.
            #expect(SecKeychainItemDelete(item) == errSecItemNotFound)
            #expect(SecKeychainItemModifyAttributesAndData(item, nil, 1, "x") == errSecItemNotFound)
            // Only that item went.
            #expect(tool.find(account: "kept").password == "pw")
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func legacyItemsAreSecItemItems(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            // Added by the legacy call, found by SecItemCopyMatching, labelled with the service as on macOS.
            #expect(tool.add("legacy", account: "grace") == errSecSuccess)
            var result: CFTypeRef?
            let search = secItemSearch("grace", [kSecReturnData as String: true, kSecReturnAttributes as String: true])
            #expect(SecItemCopyMatching(search as CFDictionary, &result) == errSecSuccess)
            let item = result as? [String: Any]
            #expect(item?[kSecValueData as String] as? Data == Data("legacy".utf8))
            #expect(item?[kSecAttrLabel as String] as? String == "com.example.tool")
            // Added by SecItemAdd, found, changed and deleted by the legacy calls.
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "com.example.tool",
                kSecAttrAccount as String: "heidi", kSecValueData as String: Data("modern".utf8),
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let found = tool.find(account: "heidi")
            #expect(found.password == "modern")
            #expect(tool.add("again", account: "heidi") == errSecDuplicateItem)
            guard let heidi = found.item else { return }
            #expect(heidi != tool.find(account: "grace").item)
            #expect(SecKeychainItemModifyAttributesAndData(heidi, nil, 5, "later") == errSecSuccess)
            var data: CFTypeRef?
            #expect(SecItemCopyMatching(secItemSearch("heidi", [kSecReturnData as String: true]) as CFDictionary, &data) == errSecSuccess)
            #expect(data as? Data == Data("later".utf8))
            #expect(SecKeychainItemDelete(heidi) == errSecSuccess)
            #expect(SecItemCopyMatching(secItemSearch("heidi") as CFDictionary, nil) == errSecItemNotFound)
            // Deleted by SecItemDelete: the legacy find no longer sees it.
            #expect(SecItemDelete(secItemSearch("grace") as CFDictionary) == errSecSuccess)
            #expect(tool.find(account: "grace").status == errSecItemNotFound)
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func emptyPasswordsAndBinaryNames(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            #expect(tool.add("", account: "ivan") == errSecSuccess)
            var length: UInt32 = 99
            var data: UnsafeMutableRawPointer?
            #expect(SecKeychainFindGenericPassword(nil, 16, "com.example.tool", 4, "ivan", &length, &data, nil) == errSecSuccess)
            #expect(length == 0)
            #expect(data != nil)
            SecKeychainItemFreeContent(nil, data)
            // The lengths count: only the first 4 bytes of "ivan-and-more" are the account.
            #expect(SecKeychainFindGenericPassword(nil, 16, "com.example.tool", 4, "ivan-and-more", nil, nil, nil) == errSecSuccess)
            // Names that are not UTF-8 are kept as bytes.
            let service: [CChar] = [0x66, -1, 0x67]
            let password = [UInt8]([0, 1, 2, 255])
            #expect(SecKeychainAddGenericPassword(nil, 3, service, 0, nil, 4, password, nil) == errSecSuccess)
            var binary: UnsafeMutableRawPointer?
            #expect(SecKeychainFindGenericPassword(nil, 3, service, 0, nil, &length, &binary, nil) == errSecSuccess)
            if let binary { #expect(Array(UnsafeRawBufferPointer(start: binary, count: Int(length))) == password) }
            SecKeychainItemFreeContent(nil, binary)
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func internetPasswords(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            var added: SecKeychainItem?
            let status = SecKeychainAddInternetPassword(
                nil, 11, "example.com", 5, "realm", 5, "alice", 6, "/login", 8443, .HTTPS, .default, 6, "s3cret", &added)
            #expect(status == errSecSuccess)
            #expect(
                SecKeychainAddInternetPassword(
                    nil, 11, "example.com", 5, "realm", 5, "alice", 6, "/login", 8443, .HTTPS, .default, 5, "other", nil) == errSecDuplicateItem)
            // Found with every attribute given.
            var length: UInt32 = 0
            var data: UnsafeMutableRawPointer?
            var found: SecKeychainItem?
            #expect(
                SecKeychainFindInternetPassword(
                    nil, 11, "example.com", 5, "realm", 5, "alice", 6, "/login", 8443, .HTTPS, .default, &length, &data, &found)
                    == errSecSuccess)
            if let data { #expect(Data(bytes: data, count: Int(length)) == Data("s3cret".utf8)) }
            SecKeychainItemFreeContent(nil, data)
            #expect(found == added)
            // Port 0, the `.any` protocol and scheme, and nil strings match anything.
            #expect(SecKeychainFindInternetPassword(nil, 11, "example.com", 0, nil, 0, nil, 0, nil, 0, .any, .any, nil, nil, nil) == errSecSuccess)
            // A different port, protocol, scheme or path does not match.
            #expect(SecKeychainFindInternetPassword(nil, 11, "example.com", 0, nil, 0, nil, 0, nil, 443, .any, .any, nil, nil, nil) == errSecItemNotFound)
            #expect(SecKeychainFindInternetPassword(nil, 11, "example.com", 0, nil, 0, nil, 0, nil, 0, .HTTP, .any, nil, nil, nil) == errSecItemNotFound)
            #expect(SecKeychainFindInternetPassword(nil, 11, "example.com", 0, nil, 0, nil, 0, nil, 0, .any, .htmlForm, nil, nil, nil) == errSecItemNotFound)
            #expect(SecKeychainFindInternetPassword(nil, 11, "example.com", 0, nil, 0, nil, 2, "/x", 0, .any, .any, nil, nil, nil) == errSecItemNotFound)
            // SecItemCopyMatching sees Apple's attribute values.
            var result: CFTypeRef?
            let search: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "example.com",
                kSecReturnAttributes as String: true,
            ]
            #expect(SecItemCopyMatching(search as CFDictionary, &result) == errSecSuccess)
            let attributes = result as? [String: Any]
            #expect(attributes?[kSecAttrProtocol as String] as? String == kSecAttrProtocolHTTPS as String)
            #expect(attributes?[kSecAttrAuthenticationType as String] as? String == kSecAttrAuthenticationTypeDefault as String)
            #expect(attributes?[kSecAttrPort as String] as? Int == 8443)
            #expect(attributes?[kSecAttrPath as String] as? String == "/login")
            #expect(attributes?[kSecAttrSecurityDomain as String] as? String == "realm")
            #expect(attributes?[kSecAttrAccount as String] as? String == "alice")
            #expect(attributes?[kSecAttrLabel as String] as? String == "example.com")
            if let added { #expect(SecKeychainItemDelete(added) == errSecSuccess) }
            #expect(SecItemCopyMatching(search as CFDictionary, nil) == errSecItemNotFound)
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func secItemInternetPasswordsAreFoundByTheLegacyCall(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            let add: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "ftp.example.org",
                kSecAttrAccount as String: "anonymous", kSecAttrProtocol as String: kSecAttrProtocolFTP,
                kSecAttrAuthenticationType as String: kSecAttrAuthenticationTypeHTTPBasic, kSecAttrPort as String: 21,
                kSecValueData as String: Data("guest".utf8),
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            var length: UInt32 = 0
            var data: UnsafeMutableRawPointer?
            #expect(
                SecKeychainFindInternetPassword(
                    nil, 15, "ftp.example.org", 0, nil, 9, "anonymous", 0, nil, 21, .FTP, .httpBasic, &length, &data, nil) == errSecSuccess)
            if let data { #expect(Data(bytes: data, count: Int(length)) == Data("guest".utf8)) }
            SecKeychainItemFreeContent(nil, data)
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func defaultKeychainAndApplesCodes(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            var keychain: SecKeychain?
            #expect(SecKeychainCopyDefault(&keychain) == errSecSuccess)
            guard let keychain else { Issue.record("no default keychain"); return }
            #expect(CFGetTypeID(keychain) == SecKeychainGetTypeID())
            // The default keychain and nil reach the same items.
            #expect(SecKeychainAddGenericPassword(keychain, 3, "svc", 4, "judy", 2, "pw", nil) == errSecSuccess)
            #expect(SecKeychainFindGenericPassword(keychain, 3, "svc", 4, "judy", nil, nil, nil) == errSecSuccess)
            #expect(SecKeychainFindGenericPassword(NSArray(array: [keychain]), 3, "svc", 4, "judy", nil, nil, nil) == errSecSuccess)
            #expect(SecKeychainFindGenericPassword(nil, 3, "svc", 4, "judy", nil, nil, nil) == errSecSuccess)
            // Apple's four-character codes: protocols big-endian, schemes in memory order.
            #expect(SecProtocolType.HTTPS.rawValue == 0x6874_7073)
            #expect(SecProtocolType.FTP.rawValue == 0x6674_7020)
            #expect(SecProtocolType(rawValue: 0x7373_6820) == .SSH)
            #expect(SecProtocolType.any.rawValue == 0)
            #expect(withUnsafeBytes(of: SecAuthenticationType.default.rawValue) { Array($0) } == Array("dflt".utf8))
            #expect(withUnsafeBytes(of: SecAuthenticationType.htmlForm.rawValue) { Array($0) } == Array("form".utf8))
            #expect(SecAuthenticationType(rawValue: SecAuthenticationType.httpDigest.rawValue) == .httpDigest)
            #expect(SecAuthenticationType.any.rawValue == 0)
        }
    }
}
