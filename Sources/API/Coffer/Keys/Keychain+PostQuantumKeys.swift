import CofferRuntime
import Foundation
import KeychainKeys
import KeychainModel
import KeychainOperations
import Query

/// Post-quantum keys the keychain keeps, stored as key items under a tag: generated, found, used and deleted.
extension Keychain {
    /// Makes an ML-KEM or ML-DSA key inside the keychain and stores it as a private key item under `tag`, as Apple's
    /// Security stores a Secure Enclave key of these kinds (`kSecAttrKeyType` 110 or 111, the parameter set as its
    /// size). Its access control defaults to after first unlock, this device only, with no constraint (CryptoKit's
    /// default for these keys). The key lives as long as its item.
    public func generatePostQuantumKey(
        _ kind: PostQuantumKey.Kind, tag: Data, label: String? = nil, accessGroup: String? = nil, accessControl: AccessControl? = nil
    ) async throws(KeychainError) -> PostQuantumKey {
        let control = accessControl ?? AccessControl(protection: .afterFirstUnlockThisDeviceOnly, flags: [])
        let client = self.client
        let made = await OwnThread.run(named: "coffer-keygen") { () -> Result<KeptPostQuantumKey, KeychainFailure> in
            Result { () throws(KeychainFailure) in
                try KeptPostQuantumKey.generate(kind.tokenKind, accessControl: control, tiedToItem: true, through: client)
            }
        }
        let key: KeptPostQuantumKey
        switch made {
        case .success(let made): key = made
        case .failure(let error): throw KeychainError(error, operation: .generateKey)
        }
        var attributes = QueryDictionary()
        attributes[QueryKey.isPermanent] = .bool(true)
        attributes[QueryKey.applicationTag] = .data(tag)
        attributes[QueryKey.label] = label.map { .string($0) }
        attributes[QueryKey.accessGroup] = accessGroup.map { .string($0) }
        let query = KeyItem.addDictionary(storing: key.itemReference, attributes: attributes)
        try await perform(.add, query) { () async throws(KeychainFailure) in try await client.add(query) }
        return PostQuantumKey(key)
    }

    /// The first post-quantum key stored under `tag`; nil when there is none.
    public func postQuantumKey(tagged tag: Data) async throws(KeychainError) -> PostQuantumKey? {
        var query = Self.postQuantumSelection(tag: tag)
        query[QueryKey.returnRef] = .bool(true)
        query[QueryKey.matchLimit] = .string(QueryConstant.matchLimitAll)
        guard case .found(let result) = try await search(query) else { return nil }
        let references: [ItemReference] =
            switch result {
            case .array(let values)?: values.compactMap { if case .itemReference(let found) = $0 { found } else { nil } }
            case .itemReference(let found)?: [found]
            default: []
            }
        return references.lazy.compactMap { reference in
            reference.data.flatMap { sealed in
                TokenKey(sealed: sealed).flatMap { KeptPostQuantumKey(sealed: sealed, kind: $0.kind) }
            }
        }.first.map(PostQuantumKey.init)
    }

    /// Deletes the post-quantum key items under `tag`: the keys with them, since the keychain uses a stored key only
    /// while its item holds it. Throws `errSecItemNotFound` (-25300) when there is none.
    public func deletePostQuantumKeys(tagged tag: Data) async throws(KeychainError) {
        var deleted = false
        var query = Self.postQuantumSelection(tag: tag)
        // One delete per key type (ML-KEM, ML-DSA): other keys under the same tag stay.
        for type in Set(TokenKeyCreation.Kind.allCases.filter(\.isPostQuantum).map(\.keyTypeCode)).sorted() {
            query[QueryKey.type] = .string(String(type))
            do {
                try await client.delete(query)
                deleted = true
            } catch  where error.status == .itemNotFound {
                continue
            } catch {
                throw KeychainError(error, operation: .delete, query: query)
            }
        }
        guard deleted else { throw KeychainError(status: .itemNotFound, operation: .delete, query: Self.postQuantumSelection(tag: tag)) }
    }

    /// The 32-byte shared secret the ML-KEM ciphertext `ciphertext` carries, recovered by `key` inside the keychain.
    ///
    /// When the key's access control asks for the person, the keychain prompts with `reason`, or uses
    /// `authenticationContext`'s proof (one that does not allow interaction fails with `errSecInteractionNotAllowed`
    /// instead of prompting), as for the other keys that never leave it.
    public func decapsulate(
        _ ciphertext: Data, with key: PostQuantumKey, authenticationContext: AuthenticationContext? = nil, reason: String? = nil
    ) async throws(KeychainError) -> SecretBytes {
        let client = self.client
        let kept = Self.authenticating(key.kept, authenticationContext, reason)
        let result = await OwnThread.run(named: "coffer-key") { () -> Result<Data, KeychainFailure> in
            Result { () throws(KeychainFailure) in try kept.decapsulate(ciphertext, through: client) }
        }
        switch result {
        case .success(var secret):
            defer { secret.resetBytes(in: 0..<secret.count) }
            return SecretBytes(copying: secret)
        case .failure(let error):
            throw KeychainError(error, operation: .decapsulate)
        }
    }

    /// An ML-DSA signature of `message` with FIPS 204's `context` (empty for none), made by `key` inside the keychain;
    /// `authenticationContext` and `reason` as for ``decapsulate(_:with:authenticationContext:reason:)``.
    public func signature(
        for message: Data, context: Data = Data(), with key: PostQuantumKey, authenticationContext: AuthenticationContext? = nil,
        reason: String? = nil
    ) async throws(KeychainError) -> Data {
        let client = self.client
        let kept = Self.authenticating(key.kept, authenticationContext, reason)
        let result = await OwnThread.run(named: "coffer-key") { () -> Result<Data, KeychainFailure> in
            Result { () throws(KeychainFailure) in try kept.signature(for: message, context: context, through: client) }
        }
        switch result {
        case .success(let signature): return signature
        case .failure(let error): throw KeychainError(error, operation: .sign)
        }
    }

    /// `key`, its uses carrying `context`'s proof and `reason`.
    private static func authenticating(_ key: KeptPostQuantumKey, _ context: AuthenticationContext?, _ reason: String?) -> KeptPostQuantumKey {
        var key = key
        key.authentication = TokenKeyAuthentication(
            context: context?.id, prompt: reason ?? "", interactive: !(context?.interactionNotAllowed ?? false))
        return key
    }

    /// The private keys kept inside the keychain under `tag`.
    private static func postQuantumSelection(tag: Data) -> QueryDictionary {
        var query = QueryDictionary()
        query[QueryKey.itemClass] = .string(ItemClass.key.rawValue)
        query[QueryKey.keyClass] = .string("1")
        query[QueryKey.applicationTag] = .data(tag)
        query[QueryKey.tokenID] = .string(KeyItem.secureEnclaveTokenID)
        return query
    }
}
