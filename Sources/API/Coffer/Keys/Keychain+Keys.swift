import Foundation
import KeyCrypto
import KeychainClient
import KeychainModel
import KeychainOperations
import Query

/// Keys stored in the keychain (`kSecClassKey`): generating, adding, finding and deleting them.
extension Keychain {
    /// Generates a private key and stores it as a `kSecClassKey` item, as `SecKeyCreateRandomKey` does with
    /// `kSecAttrIsPermanent` in `kSecPrivateKeyAttrs`: the same attributes (`klbl` the SHA-1 of the public
    /// key, `atag`, the key class, type, sizes and usage flags).
    ///
    /// ```swift
    /// let key = try await keychain.generateKey(type: .ellipticCurve, sizeInBits: 256, tag: Data("com.example.signing".utf8),
    ///                                          neverLeavesKeychain: true)
    /// ```
    ///
    /// - Parameters:
    ///   - type: `KeyType.ellipticCurve` (256, 384 or 521 bits), `KeyType.rsa` (1024 to 8192 bits in
    ///     steps of 128; 2048 to 4096 is usual) or `KeyType.ed25519` (256). Another size throws `errSecKeySizeNotAllowed` (-25311).
    ///   - tag: `kSecAttrApplicationTag`, to find the key again with ``key(tagged:authenticationContext:)``.
    ///   - label: `kSecAttrLabel`, a name for people.
    ///   - accessGroup: the access group; nil stores it in the caller's default group.
    ///   - accessibility: when the key can be read (`kSecAttrAccessible`); give this or `accessControl`.
    ///   - accessControl: for a software key, what reading its item needs; for a key that never leaves the
    ///     keychain, what using it needs (`privateKeyUsage` with its constraints, such as `.userPresence`).
    ///   - neverLeavesKeychain: makes the key inside the keychain (`kSecAttrTokenIDSecureEnclave`): its
    ///     private part never reaches this process, it is used only through the keychain, and it cannot be
    ///     exported. A P-256 key signs, decrypts and agrees keys; an Ed25519 key (`KeyType.ed25519`, 256)
    ///     signs. Another type or size throws `errSecParam` (-50). Without an
    ///     access control, using it needs `privateKeyUsage` alone, under `accessibility` (when-unlocked this
    ///     device only when nil), as Apple's default.
    ///
    /// An RSA key takes up to a second or more to generate; that runs on a thread of its own while the task
    /// is suspended. The key is stored alone (its public key is derived from it: ``PrivateKey/publicKey``).
    public func generateKey(
        type: KeyType, sizeInBits: Int, tag: Data, label: String? = nil, accessGroup: String? = nil,
        accessibility: Accessibility? = nil, accessControl: AccessControl? = nil, neverLeavesKeychain: Bool = false
    ) async throws(KeychainError) -> PrivateKey {
        let key: PrivateKey
        if neverLeavesKeychain {
            key = try await makeTokenKey(type: type, sizeInBits: sizeInBits, accessibility: accessibility, accessControl: accessControl)
        } else {
            key = try await Self.makeSoftwareKey(type: type, sizeInBits: sizeInBits)
        }
        return try await add(
            key, tag: tag, label: label, accessGroup: accessGroup, accessibility: accessibility,
            accessControl: neverLeavesKeychain ? nil : accessControl)
    }

    /// Stores `key` as a `kSecClassKey` item under `tag`, as `SecItemAdd` with the key as `kSecValueRef` does,
    /// and returns it with its stored attributes.
    ///
    /// Throws `errSecDuplicateItem` (-25299) when the same key is stored under the same tag, label, group and
    /// synchronizable flag (a key item's primary key holds its application label, the SHA-1 of its public
    /// key, so two different keys may share a tag).
    @discardableResult
    public func add(
        _ key: PrivateKey, tag: Data, label: String? = nil, accessGroup: String? = nil, accessibility: Accessibility? = nil,
        accessControl: AccessControl? = nil
    ) async throws(KeychainError) -> PrivateKey {
        let stored = PrivateKey(
            key.handle, tag: tag, label: label, accessGroup: accessGroup, accessibility: accessibility, accessControl: accessControl)
        var attributes = PrivateKey.stored.entries(of: stored)
        attributes[QueryKey.isPermanent] = .bool(true)
        let query = KeyItemRecord.addDictionary(for: key, attributes: attributes)
        let result = try await perform(.add, query) { () async throws(KeychainFailure) in try await client.add(query) }
        guard case .dictionary(let values)? = result else {
            throw KeychainError(
                status: .internal, operation: .add, query: query,
                reason: "The keychain returned \(result?.typeName ?? "nothing") where Coffer expected a dictionary of attributes.")
        }
        return KeyItemRecord.key(key, withStored: values)
    }

    /// The first private key stored under `tag` (`kSecAttrApplicationTag`), with its stored attributes; nil
    /// when there is none, as ``item(matching:)`` answers for passwords. Post-quantum keys under the same tag are
    /// ``postQuantumKey(tagged:)``'s, never this one's.
    ///
    /// `authenticationContext` serves a software key whose item needs authentication to be read. A key that
    /// never leaves the keychain is always found; its use is what its access control guards.
    public func key(tagged tag: Data, authenticationContext: AuthenticationContext? = nil) async throws(KeychainError) -> PrivateKey? {
        var query = Self.privateKeySelection(tag: tag)
        query[QueryKey.returnRef] = .bool(true)
        query[QueryKey.returnPersistentRef] = .bool(true)
        query[QueryKey.matchLimit] = .string(QueryConstant.matchLimitAll)
        query[QueryKey.useAuthenticationContext] = authenticationContext?.queryValue
        let result: KeychainValue?
        do {
            result = try await client.copyMatching(query)
        } catch  where error.status == .itemNotFound {
            return nil
        } catch {
            throw KeychainError(error, operation: .copyMatching, query: query)
        }
        let found: [KeychainValue] = if case .array(let values)? = result { values } else { result.map { [$0] } ?? [] }
        if let key = found.lazy.compactMap({ KeyItemRecord.key(reading: $0) }).first { return key }
        guard found.allSatisfy(KeyItemRecord.isPostQuantumKey) else {
            throw KeychainError(
                status: .internal, operation: .copyMatching, query: query,
                reason: "The keychain returned \(result?.typeName ?? "nothing") that holds no private key.")
        }
        return nil
    }

    /// Deletes `key`'s item: the private key with its application label (and its tag and group, when it
    /// has them). Throws `errSecItemNotFound` (-25300) when it is not stored.
    public func delete(_ key: PrivateKey) async throws(KeychainError) {
        var query = QueryDictionary()
        query[QueryKey.itemClass] = .string(ItemClass.key.rawValue)
        query[QueryKey.keyClass] = .string(String(KeyClass.privateKey.rawValue))
        query[QueryKey.applicationLabel] = .data(key.applicationLabel)
        query[QueryKey.applicationTag] = key.applicationTag.map { .data($0) }
        query[QueryKey.accessGroup] = key.accessGroup.map { .string($0) }
        try await perform(.delete, query) { () async throws(KeychainFailure) in try await client.delete(query) }
    }

    /// Deletes every private key stored under `tag`, post-quantum keys included. Throws `errSecItemNotFound` (-25300)
    /// when there is none.
    public func deleteKeys(tagged tag: Data) async throws(KeychainError) {
        let query = Self.privateKeySelection(tag: tag)
        try await perform(.delete, query) { () async throws(KeychainFailure) in try await client.delete(query) }
    }

    /// The private keys under `tag`.
    private static func privateKeySelection(tag: Data) -> QueryDictionary {
        var query = QueryDictionary()
        query[QueryKey.itemClass] = .string(ItemClass.key.rawValue)
        query[QueryKey.keyClass] = .string(String(KeyClass.privateKey.rawValue))
        query[QueryKey.applicationTag] = .data(tag)
        return query
    }
}
