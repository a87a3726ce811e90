import Foundation
import KeyCrypto
import KeychainSelection
import KeychainModel
import Query
import Security

/// The agent's keys in the keychain: private key items (`kSecClassKey`) tagged ``AgentKeyTag``, with the
/// comment as `kSecAttrLabel`, in the owner's group ``OwnerAccessGroups/sshAgent``, which the system daemon opens
/// only to a connection that proved the keychain passcode (``AgentOwnerAccess``). They are read anew for each request, so keys added or removed by another process
/// (`coffer create-key --ssh`, `coffer delete-key`) are seen at once and every key survives a restart.
///
/// Every call blocks its thread on the keychain: searches through `client`'s typed calls (``KeychainAttributes``),
/// adding, deleting and signing with a key that never leaves through Apple's functions over `client`. The agent calls
/// it from a connection's own thread, never from Swift's cooperative pool.
public struct KeychainAgentStore: Sendable {
    /// The keychain the keys are in; the agent also reads the user's program registry through it.
    let client: any KeychainClient
    private let now: @Sendable () -> Date
    /// Software keys made from their items' bytes, reused while the keychain answers the same bytes.
    let opened = OpenedAgentKeys()
    /// Public keys read from the keychain, by application label, so that a listing needs one search.
    private let knownPublicKeys = KnownPublicKeys()
    /// How this store proves the owner when the keychain asks; nil where it never does (an embedded keychain).
    private let ownerAccess: AgentOwnerAccess?
    /// Whether the keys stored before they moved to the owner's group have been moved.
    let legacyKeys = LegacyAgentKeys()

    /// A store in the keychain `client`, proving the owner through `ownerAccess` when asked; `now` is the clock
    /// lifetimes are measured with.
    public init(client: any KeychainClient, ownerAccess: AgentOwnerAccess? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.ownerAccess = ownerAccess
        self.now = now
    }

    /// The group the agent's keys are stored in.
    static let accessGroup = OwnerAccessGroups.sshAgent

    /// The current time in whole seconds since 1970, rounded down: a key whose ``AgentKeyTag/expiresAt`` is at most
    /// this has expired.
    public var currentTime: Int64 { Int64(now().timeIntervalSince1970.rounded(.down)) }

    /// When a key added now with a lifetime of `seconds` expires: at least that many seconds from now (the time is
    /// rounded up first), at most one more.
    public func expiry(afterSeconds seconds: UInt32) -> Int64 {
        Int64(now().timeIntervalSince1970.rounded(.up)) + Int64(seconds)
    }

    /// The agent's keys, without those whose lifetime has ended (they are deleted).
    ///
    /// One search, which returns no private key's bytes: the private key items' attributes (tag, label, token). Their
    /// public keys are those read before (``KnownPublicKeys``); when one is not known, a second search reads the public
    /// key items of the same tag with their bytes, paired by application label, and a private key whose public half is
    /// not stored is read once to derive it.
    public func keys() throws(AgentRefusal) -> [AgentKey] {
        let privates = try asOwner { () throws(AgentRefusal) in
            try moveLegacyKeysOnce()
            return try search(keyClass: kSecAttrKeyClassPrivate, returnData: false)
        }
        let labels = privates.compactMap { $0.data(QueryKey.applicationLabel) }
        if labels.contains(where: { knownPublicKeys.key(label: $0) == nil }) {
            for item in try search(keyClass: kSecAttrKeyClassPublic, returnData: true) {
                guard let label = item.data(QueryKey.applicationLabel), let bytes = item.data(QueryKey.valueData), let type = item.keyType,
                    let key = try? AsymmetricKey(externalRepresentation: bytes, type: type, keyClass: .publicKey)
                else { continue }
                knownPublicKeys.keep(key, label: label)
            }
        }
        let found = try onClient { () -> [AgentKey] in
            privates.compactMap { item in
                guard let label = item.data(QueryKey.applicationLabel), let tagData = item.data(QueryKey.applicationTag) else { return nil }
                let publicKey = knownPublicKeys.key(label: label) ?? derivedPublicKey(label: label, tag: tagData)
                return publicKey.flatMap { Self.agentKey(item, publicKey: $0) }
            }
        }
        let time = currentTime
        var live: [AgentKey] = []
        for key in found {
            if let expiry = key.tag.expiresAt, expiry <= time {
                _ = try? delete(key)
            } else {
                live.append(key)
            }
        }
        return live
    }

    /// The public key of the private key item with `label` and `tag`, derived from the private key; kept when `label`
    /// is its own.
    private func derivedPublicKey(label: Data, tag: Data) -> AsymmetricKey? {
        guard let key = Self.privateKeyItem(label: label, tag: tag).flatMap(SecKeyCopyPublicKey).flatMap(Self.asymmetricKey) else { return nil }
        knownPublicKeys.keep(key, label: label)
        return key
    }

    /// The private key of `key`, read for one operation.
    public func privateKey(of key: AgentKey) throws(AgentRefusal) -> SecKey {
        let found = try onClient { () -> SecKey? in Self.privateKeyItem(label: key.applicationLabel, tag: key.tagData) }
        guard let found else { throw AgentRefusal("the key is no longer in the keychain") }
        return found
    }

    /// The key whose public blob is `blob`, if the agent has it.
    public func key(blob: Data) throws(AgentRefusal) -> AgentKey? {
        try keys().first { $0.blob == blob }
    }

    /// Stores `key` under `comment` and `tag`, replacing the agent's copy of the same identity (its comment and
    /// constraints change, as OpenSSH's agent replaces them). With a certificate in `tag`, the identity is the
    /// certificate's, kept apart from the key's own: each is listed, used and removed by its own blob.
    public func add(_ key: AsymmetricKey, comment: String, tag: AgentKeyTag) throws(AgentRefusal) {
        let blob = tag.certificate ?? SSHKeyType.publicKeyBlob(of: key)
        for existing in try keys() where existing.blob == blob {
            guard !existing.isKeychainMade else { throw AgentRefusal("the key was made in the keychain and is already offered") }
            try delete(existing)
        }
        try onClient { () throws(AgentRefusal) in
            var representation = key.externalRepresentation()
            defer { representation.zeroize() }
            let type = SSHKeyType.keychainType(key.type)
            var error: Unmanaged<CFError>?
            guard
                let secKey = SecKeyCreateWithData(
                    representation as CFData,
                    [
                        kSecAttrKeyType as String: type, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
                    ] as CFDictionary, &error)
            else {
                _ = error?.takeRetainedValue()
                throw AgentRefusal("the key could not be made a keychain key")
            }
            // The public half is stored too, so that listing the keys never reads a private key.
            guard let publicKey = SecKeyCopyPublicKey(secKey) else { throw AgentRefusal("the key has no public key") }
            // The private half is not extractable: `coffer export --private-key` and backups leave it where it is, so
            // that a program limited key cannot be carried off through the keychain's own front ends.
            for (half, extractable) in [(secKey, false), (publicKey, true)] {
                let status = SecItemAdd(
                    [
                        kSecValueRef as String: half, kSecAttrApplicationTag as String: tag.data, kSecAttrLabel as String: comment,
                        kSecAttrIsExtractable as String: extractable, kSecAttrAccessGroup as String: Self.accessGroup,
                    ] as CFDictionary, nil)
                guard status == errSecSuccess else {
                    // coffer-lint:disable status-ignored: undoing the first half is best effort; the add's status is the answer.
                    _ = SecItemDelete(
                        [
                            kSecClass as String: kSecClassKey, kSecAttrApplicationLabel as String: key.applicationLabel,
                            kSecAttrApplicationTag as String: tag.data,
                        ] as CFDictionary)
                    throw AgentRefusal("the keychain refused the key (status \(status))")
                }
            }
        }
    }

    /// Deletes `key`'s items (its private and public halves): exactly those with its application label and tag.
    public func delete(_ key: AgentKey) throws(AgentRefusal) {
        try onClient { () throws(AgentRefusal) in
            let status = SecItemDelete(
                [
                    kSecClass as String: kSecClassKey, kSecAttrApplicationLabel as String: key.applicationLabel, kSecAttrApplicationTag as String: key.tagData,
                ] as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw AgentRefusal("the keychain did not delete the key (status \(status))")
            }
        }
    }

    /// `key`'s signature of `data` under `scheme`, made by the keychain (inside it, for a key that never leaves).
    public func sign(_ data: Data, with key: AgentKey, scheme: SSHSignature.Scheme) throws(AgentRefusal) -> Data {
        try onClient { () throws(AgentRefusal) -> Data in
            var error: Unmanaged<CFError>?
            let algorithm = SecKeyAlgorithm(rawValue: scheme.algorithm.rawValue as CFString)
            let privateKey = try privateKey(of: key)
            guard let signature = SecKeyCreateSignature(privateKey, algorithm, data as CFData, &error) else {
                let reason = error.map { String(CFErrorCopyDescription($0.takeRetainedValue())) } ?? "no reason given"
                throw AgentRefusal("the keychain did not sign: \(reason)")
            }
            return signature as Data
        }
    }

    /// Runs `body` with Apple's functions on this store's keychain.
    func onClient<Result>(_ body: () throws(AgentRefusal) -> Result) throws(AgentRefusal) -> Result {
        let outcome: Swift.Result<Result, AgentRefusal> = SharedKeychainClient.$taskClient.withValue(client) {
            do throws(AgentRefusal) { return .success(try body()) } catch { return .failure(error) }
        }
        return try outcome.get()
    }

    /// Runs `body`; when the keychain refuses the owner's group, proves the owner through ``ownerAccess`` and runs it
    /// once more.
    func asOwner<Result>(_ body: () throws(AgentRefusal) -> Result) throws(AgentRefusal) -> Result {
        let seen = ownerAccess?.generation ?? 0
        do {
            return try body()
        } catch  where error.isOwnerAccessMissing {
            guard let ownerAccess, ownerAccess.proveAfterRefusal(seen: seen) else { throw error }
            return try body()
        }
    }

    /// The agent's items of `keyClass`: their attributes, and their bytes under `v_Data` when `returnData`.
    private func search(keyClass: CFString, returnData: Bool) throws(AgentRefusal) -> [KeychainAttributes] {
        let query = KeychainAttributes.keyQuery(
            returnData: returnData,
            [
                QueryKey.keyClass: .string(keyClass as String), QueryKey.accessGroup: .string(Self.accessGroup),
            ])
        return try KeychainAttributes.search(query, on: client).filter { item in
            item.data(QueryKey.applicationTag).flatMap(AgentKeyTag.init) != nil
        }
    }

    /// The private key item with `label` and `tag`, as a `SecKey`.
    static func privateKeyItem(label: Data, tag: Data) -> SecKey? {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(
            [
                kSecClass as String: kSecClassKey, kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
                kSecAttrApplicationLabel as String: label, kSecAttrApplicationTag as String: tag, kSecReturnRef as String: true,
            ] as CFDictionary, &result)
        guard status == errSecSuccess else { return nil }
        return result as? SecKey
    }

    /// The public key `publicSecKey` as the cryptography module holds it; nil when it is of a type the agent does not serve.
    private static func asymmetricKey(_ publicSecKey: SecKey) -> AsymmetricKey? {
        let attributes = SecKeyCopyAttributes(publicSecKey) as? [String: Any]
        guard let publicBytes = SecKeyCopyExternalRepresentation(publicSecKey, nil) as Data?,
            let type = SSHKeyType.keyType(keychainValue: attributes?[kSecAttrKeyType as String])
        else { return nil }
        return try? AsymmetricKey(externalRepresentation: publicBytes, type: type, keyClass: .publicKey)
    }

    /// The agent's key for a private key item's attributes and its public key, or nil when the item is not the agent's.
    private static func agentKey(_ item: KeychainAttributes, publicKey: AsymmetricKey) -> AgentKey? {
        guard let tagData = item.data(QueryKey.applicationTag), let tag = AgentKeyTag(tagData), let label = item.data(QueryKey.applicationLabel)
        else { return nil }
        return AgentKey(
            publicKey: publicKey, blob: tag.certificate ?? SSHKeyType.publicKeyBlob(of: publicKey), comment: item.string(QueryKey.label) ?? "",
            tag: tag, tagData: tagData, applicationLabel: label, isKeychainMade: item.string(QueryKey.tokenID) == KeyItem.secureEnclaveTokenID)
    }
}
