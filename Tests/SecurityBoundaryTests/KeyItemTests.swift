import Foundation
import Security
import Testing

/// `kSecClassKey` items through Apple's four functions, with the raw attribute dictionaries client code
/// (and, later, `SecKey`) writes: Apple's string constants for the key class and type, the external
/// representation as `kSecValueData` (reference §1.3.4, §1.4, §2.4, §7.1, §10.1); on both transports.
@Suite(.timeLimit(.minutes(10))) struct KeyItemTests {
    /// An ANSI X9.63 P-256 private key's shape: 04 ‖ X ‖ Y ‖ K.
    private static let privateKeyBytes = Data([0x04] + (1...96).map { UInt8($0) })

    private static func privateKey(tag: String, _ extra: [String: Any] = [:]) -> [String: Any] {
        [
            kSecClass as String: kSecClassKey, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
            kSecAttrApplicationTag as String: Data(tag.utf8), kSecValueData as String: privateKeyBytes,
        ].merging(extra) { _, new in new }
    }

    private static func keys(_ extra: [String: Any]) -> [String: Any] {
        [kSecClass as String: kSecClassKey].merging(extra) { _, new in new }
    }

    private static func add(_ item: [String: Any]) -> OSStatus { SecItemAdd(item as CFDictionary, nil) }

    private static func copy(_ query: [String: Any]) -> (OSStatus, CFTypeRef?) {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result)
    }

    private static func attributes(_ query: [String: Any]) -> [String: Any]? {
        copy(query.merging([kSecReturnAttributes as String: true]) { _, new in new }).1 as? [String: Any]
    }

    /// §1.3.4: what a key added with nothing but its class, tag and data reads back as.
    @Test(arguments: BoundaryTransport.allCases) func defaultsAreReturned(transport: BoundaryTransport) throws {
        try withFreshKeychain(transport) {
            let tag = "com.example.defaults"
            #expect(Self.add(Self.keys([kSecAttrApplicationTag as String: tag, kSecValueData as String: Data([1])])) == errSecSuccess)
            let found = try #require(Self.attributes(Self.keys([kSecAttrApplicationTag as String: tag])))
            #expect(found[kSecAttrKeyClass as String] as? Int == 0)
            #expect(found[kSecAttrApplicationLabel as String] as? Data == Data())
            #expect(found[kSecAttrApplicationTag as String] as? String == tag)  // a Blob keeps its type
            for name in [kSecAttrKeyCreator, kSecAttrKeyType, kSecAttrKeySizeInBits, kSecAttrEffectiveKeySize] {
                #expect(found[name as String] as? Int == 0, "\(name)")
            }
            #expect(found[kSecAttrStartDate as String] as? Date == Date(timeIntervalSinceReferenceDate: 0))
            #expect(found[kSecAttrEndDate as String] as? Date == Date(timeIntervalSinceReferenceDate: 0))
            #expect(found[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlocked as String)
            #expect(found[kSecAttrSynchronizable as String] as? Int == 0)
            #expect(found[kSecClass as String] == nil)
            #expect(found[kSecValueData as String] == nil)
        }
    }

    /// §7.1, §10.1: the class and type constants are stored and returned as numbers, and match as strings
    /// or numbers; the tag matches as data or string, the label by its bytes.
    @Test(arguments: BoundaryTransport.allCases) func keysAreFoundByTagLabelClassAndType(transport: BoundaryTransport) throws {
        try withFreshKeychain(transport) {
            let label = Data(repeating: 0x5A, count: 20)
            #expect(
                Self.add(
                    Self.privateKey(
                        tag: "signing",
                        [
                            kSecAttrLabel as String: "Signing key", kSecAttrApplicationLabel as String: label,
                        ])) == errSecSuccess)
            let stored = try #require(Self.attributes(Self.keys([kSecAttrLabel as String: "Signing key"])))
            #expect(stored[kSecAttrKeyClass as String] as? Int == 1)
            #expect(stored[kSecAttrKeyType as String] as? Int == 73)
            #expect(stored[kSecAttrKeySizeInBits as String] as? Int == 256)
            #expect(stored[kSecAttrApplicationTag as String] as? Data == Data("signing".utf8))
            #expect(stored[kSecAttrApplicationLabel as String] as? Data == label)

            let finds: [[String: Any]] = [
                [kSecAttrApplicationTag as String: Data("signing".utf8)],
                [kSecAttrApplicationTag as String: "signing"],
                [kSecAttrKeyClass as String: kSecAttrKeyClassPrivate, kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom],
                [kSecAttrKeyClass as String: 1, kSecAttrKeyType as String: 73, kSecAttrKeySizeInBits as String: "256"],
                [kSecAttrKeyType as String: kSecAttrKeyTypeEC],
                [kSecAttrApplicationLabel as String: label],
                [kSecAttrLabel as String: "Signing key"],
            ]
            for query in finds {
                let (status, data) = Self.copy(Self.keys(query.merging([kSecReturnData as String: true]) { _, new in new }))
                #expect(status == errSecSuccess, "\(query)")
                #expect(data as? Data == Self.privateKeyBytes, "\(query)")
            }
            let misses: [[String: Any]] = [
                [kSecAttrKeyClass as String: kSecAttrKeyClassPublic], [kSecAttrKeyType as String: kSecAttrKeyTypeRSA],
                [kSecAttrApplicationTag as String: "Signing"], [kSecAttrKeySizeInBits as String: 384],
            ]
            for query in misses { #expect(Self.copy(Self.keys(query)).0 == errSecItemNotFound, "\(query)") }
        }
    }

    /// §1.4: duplicates by the key constraint (-25299), new items when any part of it differs.
    @Test(arguments: BoundaryTransport.allCases) func duplicatesFollowTheKeyConstraint(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            #expect(Self.add(Self.privateKey(tag: "t")) == errSecSuccess)
            let duplicates: [[String: Any]] = [
                [kSecAttrLabel as String: "another label"],
                [kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock],
                [kSecAttrIsPermanent as String: true, kSecAttrCanSign as String: true],
                [kSecValueData as String: Data([9, 9])],
                [kSecAttrKeyClass as String: 1, kSecAttrKeyType as String: 73, kSecAttrApplicationTag as String: "t"],
            ]
            for extra in duplicates {
                #expect(Self.add(Self.privateKey(tag: "t", extra)) == errSecDuplicateItem, "\(extra)")
            }
            let distinct: [[String: Any]] = [
                [kSecAttrKeyClass as String: kSecAttrKeyClassPublic],
                [kSecAttrApplicationLabel as String: Data([1])],
                [kSecAttrApplicationTag as String: Data("u".utf8)],
                [kSecAttrKeyCreator as String: 1],
                [kSecAttrKeyType as String: kSecAttrKeyTypeRSA],
                [kSecAttrKeySizeInBits as String: 384],
                [kSecAttrEffectiveKeySize as String: 128],
                [kSecAttrStartDate as String: Date(timeIntervalSinceReferenceDate: 3600)],
                [kSecAttrEndDate as String: Date(timeIntervalSinceReferenceDate: 3600)],
                [kSecAttrSynchronizable as String: true],
            ]
            for extra in distinct {
                #expect(Self.add(Self.privateKey(tag: "t", extra)) == errSecSuccess, "\(extra)")
            }
            let all =
                Self.copy(
                    Self.keys([
                        kSecMatchLimit as String: kSecMatchLimitAll, kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
                        kSecReturnAttributes as String: true,
                    ])
                ).1 as? [[String: Any]]
            #expect(all?.count == 11)
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func updateAndDelete(transport: BoundaryTransport) {
        withFreshKeychain(transport) {
            #expect(Self.add(Self.privateKey(tag: "a")) == errSecSuccess)
            #expect(Self.add(Self.privateKey(tag: "b")) == errSecSuccess)
            let byTag = { (tag: String) in Self.keys([kSecAttrApplicationTag as String: Data(tag.utf8)]) }
            let changes: [String: Any] = [kSecAttrLabel as String: "renamed", kSecValueData as String: Data([4, 2])]
            #expect(SecItemUpdate(byTag("a") as CFDictionary, changes as CFDictionary) == errSecSuccess)
            let updated =
                Self.copy(
                    Self.keys([
                        kSecAttrLabel as String: "renamed", kSecReturnData as String: true, kSecReturnAttributes as String: true,
                    ])
                ).1 as? [String: Any]
            #expect(updated?[kSecValueData as String] as? Data == Data([4, 2]))
            #expect(updated?[kSecAttrApplicationTag as String] as? Data == Data("a".utf8))
            #expect(updated?[kSecAttrKeyClass as String] as? Int == 1)
            // U10: the new tag collides with the other key.
            let collide = [kSecAttrApplicationTag as String: Data("b".utf8)]
            #expect(SecItemUpdate(byTag("a") as CFDictionary, collide as CFDictionary) == errSecDuplicateItem)
            let makePublic = [kSecAttrKeyClass as String: kSecAttrKeyClassPublic]
            #expect(SecItemUpdate(byTag("a") as CFDictionary, makePublic as CFDictionary) == errSecSuccess)
            #expect(Self.attributes(byTag("a"))?[kSecAttrKeyClass as String] as? Int == 0)

            let deleteAll = byTag("a").merging([kSecMatchLimit as String: kSecMatchLimitAll]) { _, new in new }
            #expect(SecItemDelete(deleteAll as CFDictionary) == errSecSuccess)  // D1: All is accepted
            #expect(Self.copy(byTag("a")).0 == errSecItemNotFound)
            #expect(SecItemDelete(byTag("a") as CFDictionary) == errSecItemNotFound)
            #expect(Self.copy(byTag("b")).0 == errSecSuccess)
            #expect(SecItemDelete(Self.keys([:]) as CFDictionary) == errSecSuccess)
            #expect(Self.copy(Self.keys([:])).0 == errSecItemNotFound)
        }
    }

    /// §2.4: `kSecReturnRef` on a key is a `SecKey` made from its item — alone, under `v_Ref`, in arrays, and
    /// from `SecItemAdd`; an item whose bytes are no key gives no key.
    @Test(arguments: BoundaryTransport.allCases) func referenceResultShapes(transport: BoundaryTransport) throws {
        try withFreshKeychain(transport) {
            let key = try #require(
                SecKeyCreateRandomKey(
                    [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256] as CFDictionary, nil))
            let bytes = try #require(SecKeyCopyExternalRepresentation(key, nil) as Data?)
            var added: CFTypeRef?
            let item = Self.privateKey(tag: "r", [kSecReturnRef as String: true, kSecValueData as String: bytes])
            #expect(SecItemAdd(item as CFDictionary, &added) == errSecSuccess)
            #expect(added as? SecKey == key)

            let byTag = Self.keys([kSecAttrApplicationTag as String: Data("r".utf8)])
            let (status, found) = Self.copy(byTag.merging([kSecReturnRef as String: true]) { _, new in new })
            #expect(status == errSecSuccess)
            #expect(CFGetTypeID(found) == SecKeyGetTypeID())
            #expect(found as? SecKey == key)

            let withAttributes = try #require(
                Self.copy(byTag.merging([kSecReturnRef as String: true, kSecReturnAttributes as String: true]) { _, new in new }).1
                    as? [String: Any])
            #expect(withAttributes[kSecClass as String] as? String == kSecClassKey as String)
            #expect(withAttributes[kSecValueData as String] == nil)
            #expect(withAttributes[kSecAttrKeyClass as String] as? Int == 1)
            #expect(withAttributes[kSecValueRef as String] as? SecKey == key)

            let publicKey = try #require(SecKeyCopyPublicKey(key))
            let publicBytes = try #require(SecKeyCopyExternalRepresentation(publicKey, nil) as Data?)
            #expect(
                Self.add(Self.privateKey(tag: "r", [kSecAttrKeyClass as String: kSecAttrKeyClassPublic, kSecValueData as String: publicBytes])) == errSecSuccess
            )
            let all = Self.copy(byTag.merging([kSecReturnRef as String: true, kSecMatchLimit as String: kSecMatchLimitAll]) { _, new in new }).1
            let references = try #require(all as? [SecKey])
            #expect(Set(references) == [key, publicKey])

            // Bytes that are no key of the stored type make no key: as Apple's SecItemResultProcess, success with no
            // result alone, left out of arrays, and no kSecValueRef beside attributes.
            #expect(Self.add(Self.privateKey(tag: "junk")) == errSecSuccess)
            let junkQuery = Self.keys([kSecAttrApplicationTag as String: Data("junk".utf8), kSecReturnRef as String: true])
            let junk = Self.copy(junkQuery)
            #expect(junk.0 == errSecSuccess && junk.1 == nil)
            let junkAll = Self.copy(junkQuery.merging([kSecMatchLimit as String: kSecMatchLimitAll]) { _, new in new }).1
            #expect((junkAll as? [SecKey])?.isEmpty == true)
            let junkAttributes = Self.copy(junkQuery.merging([kSecReturnAttributes as String: true]) { _, new in new }).1 as? [String: Any]
            #expect(junkAttributes?[kSecValueRef as String] == nil && junkAttributes?[kSecAttrApplicationTag as String] != nil)
        }
    }
}
