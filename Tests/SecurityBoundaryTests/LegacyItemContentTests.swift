import Foundation
import Security
import Testing

/// `SecKeychainItemCopyContent`: the class, the attributes a list names and the password of an item a
/// legacy call handed out, as macOS's file keychain gives them; on both transports.
@Suite(.timeLimit(.minutes(10))) struct LegacyItemContentTests {
    private static func text(_ attribute: SecKeychainAttribute) -> String? {
        attribute.data.map { String(decoding: Data(bytes: $0, count: Int(attribute.length)), as: UTF8.self) }
    }

    private static func number(_ attribute: SecKeychainAttribute) -> UInt32? {
        guard attribute.length == 4, let data = attribute.data else { return nil }
        return data.loadUnaligned(as: UInt32.self)
    }

    @Test(arguments: BoundaryTransport.allCases) func genericPasswordContent(transport: BoundaryTransport) throws {
        try withFreshKeychain(transport) {
            var item: SecKeychainItem?
            #expect(SecKeychainAddGenericPassword(nil, 4, "tool", 5, "alice", 6, "s3cret", &item) == errSecSuccess)
            let added = try #require(item)
            var attributes = [
                SecKeychainAttribute(tag: SecItemAttr.accountItemAttr.rawValue, length: 0, data: nil),
                SecKeychainAttribute(tag: SecItemAttr.serviceItemAttr.rawValue, length: 0, data: nil),
                SecKeychainAttribute(tag: SecItemAttr.commentItemAttr.rawValue, length: 0, data: nil),
                SecKeychainAttribute(tag: SecItemAttr.creationDateItemAttr.rawValue, length: 0, data: nil),
            ]
            try attributes.withUnsafeMutableBufferPointer { buffer in
                var list = SecKeychainAttributeList(count: UInt32(buffer.count), attr: buffer.baseAddress)
                var itemClass = SecItemClass.certificateItemClass
                var length: UInt32 = 0
                var data: UnsafeMutableRawPointer?
                #expect(SecKeychainItemCopyContent(added, &itemClass, &list, &length, &data) == errSecSuccess)
                #expect(itemClass == .genericPasswordItemClass)
                #expect(Self.text(buffer[0]) == "alice")
                #expect(Self.text(buffer[1]) == "tool")
                // No comment: nothing handed out.
                #expect(buffer[2].length == 0 && buffer[2].data == nil)
                // The creation date as the file keychain's time string: 15 characters and a NUL, this year's.
                let date = try #require(Self.text(buffer[3]))
                #expect(buffer[3].length == 16 && date.hasSuffix("Z\0"))
                #expect(date.hasPrefix(String(Calendar(identifier: .gregorian).component(.year, from: Date()))))
                let pointer = try #require(data)
                #expect(String(decoding: Data(bytes: pointer, count: Int(length)), as: UTF8.self) == "s3cret")
                #expect(SecKeychainItemFreeContent(&list, data) == errSecSuccess)
                #expect(buffer[0].data == nil && buffer[1].data == nil)
            }
            // The password alone, as tools that only read it call it.
            var length: UInt32 = 0
            var data: UnsafeMutableRawPointer?
            #expect(SecKeychainItemCopyContent(added, nil, nil, &length, &data) == errSecSuccess)
            #expect(length == 6)
            SecKeychainItemFreeContent(nil, data)
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func internetPasswordNumbersAndRefusals(transport: BoundaryTransport) throws {
        try withFreshKeychain(transport) {
            var item: SecKeychainItem?
            #expect(
                SecKeychainAddInternetPassword(
                    nil, 11, "example.com", 0, nil, 5, "alice", 6, "/login", 8443, .HTTPS, .default, 2, "pw", &item) == errSecSuccess)
            let added = try #require(item)
            var attributes = [
                SecKeychainAttribute(tag: SecItemAttr.serverItemAttr.rawValue, length: 0, data: nil),
                SecKeychainAttribute(tag: SecItemAttr.portItemAttr.rawValue, length: 0, data: nil),
                SecKeychainAttribute(tag: SecItemAttr.protocolItemAttr.rawValue, length: 0, data: nil),
                SecKeychainAttribute(tag: SecItemAttr.securityDomainItemAttr.rawValue, length: 0, data: nil),
            ]
            attributes.withUnsafeMutableBufferPointer { buffer in
                var list = SecKeychainAttributeList(count: UInt32(buffer.count), attr: buffer.baseAddress)
                var itemClass = SecItemClass.genericPasswordItemClass
                #expect(SecKeychainItemCopyContent(added, &itemClass, &list, nil, nil) == errSecSuccess)
                #expect(itemClass == .internetPasswordItemClass)
                #expect(Self.text(buffer[0]) == "example.com")
                #expect(Self.number(buffer[1]) == 8443)
                #expect(Self.number(buffer[2]) == SecProtocolType.HTTPS.rawValue)
                #expect(buffer[3].length == 0)
                SecKeychainItemFreeContent(&list, nil)
            }
            // A generic password's attribute is not an internet password's: -25303, nothing written.
            var service = SecKeychainAttribute(tag: SecItemAttr.serviceItemAttr.rawValue, length: 0, data: nil)
            var list = SecKeychainAttributeList(count: 1, attr: &service)
            #expect(SecKeychainItemCopyContent(added, nil, &list, nil, nil) == errSecNoSuchAttr)
            #expect(service.data == nil)
            // A deleted item: -25300.
            #expect(SecKeychainItemDelete(added) == errSecSuccess)
            var length: UInt32 = 7
            #expect(SecKeychainItemCopyContent(added, nil, nil, &length, nil) == errSecItemNotFound)
            #expect(length == 7)
        }
    }
}
