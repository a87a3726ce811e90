import Foundation
import KeyCrypto
import KeychainModel
import Query
import Security

/// A key found for a signature: the agent's key, and for a key added with `ssh-add` its private key, made from the
/// bytes the keychain just answered (a key made in the keychain signs there, through its `SecKey`).
public struct AgentSigningKey: Sendable {
    /// The key as the agent offers it.
    public let key: AgentKey
    /// The private key of a software key; nil for a key that never leaves the keychain.
    let software: AsymmetricKey?
}

extension KeychainAgentStore {
    /// The key whose public blob is `blob`, ready to sign, or nil when the agent has no such key (an expired one is
    /// deleted first).
    ///
    /// Ed25519 and ECDSA keys and their certificates are found with one search, by the application label the blob
    /// gives: the private key item's attributes and bytes. RSA keys and certificates are found among all the agent's
    /// keys, as for a listing.
    public func signingKey(blob: Data) throws(AgentRefusal) -> AgentSigningKey? {
        guard let named = SSHPublicKeyBlob(blob) else {
            return try key(blob: blob).map { AgentSigningKey(key: $0, software: nil) }
        }
        let label = named.applicationLabel
        let query = KeychainAttributes.keyQuery(
            returnData: true, [QueryKey.keyClass: .string(kSecAttrKeyClassPrivate as String), QueryKey.applicationLabel: .data(label)])
        var found: AgentSigningKey?
        // Walked by index, so that the key item's bytes are taken out of the answer itself and cleared there.
        var items = try KeychainAttributes.search(query, on: client)
        for index in items.indices {
            // The key's own identity and each certificate identity of it are items of their own, told apart by the tag.
            guard let tagData = items[index].data(QueryKey.applicationTag), let tag = AgentKeyTag(tagData), tag.certificate == named.certificate,
                let type = items[index].keyType
            else { continue }
            found = try Self.signingKey(&items[index], blob: blob, named: named, tag: tag, tagData: tagData, type: type, opened: opened)
            break
        }
        guard let found else { return nil }
        if let expiry = found.key.tag.expiresAt, expiry <= currentTime {
            try delete(found.key)
            return nil
        }
        return found
    }

    /// `key`'s signature of `data` under `scheme`: made here with a software key, or by the keychain (inside it, for a
    /// key that never leaves).
    public func sign(_ data: Data, with key: AgentSigningKey, scheme: SSHSignature.Scheme) throws(AgentRefusal) -> Data {
        guard let software = key.software else { return try sign(data, with: key.key, scheme: scheme) }
        do {
            return try software.signature(for: data, algorithm: scheme.algorithm)
        } catch {
            throw AgentRefusal("the key did not sign: \(error.message)")
        }
    }

    /// The signing key for a private key item's attributes and bytes (`v_Data`), if its public key is the blob's.
    private static func signingKey(
        _ item: inout KeychainAttributes, blob: Data, named: SSHPublicKeyBlob, tag: AgentKeyTag, tagData: Data, type: KeyType, opened: OpenedAgentKeys
    ) throws(AgentRefusal) -> AgentSigningKey? {
        let comment = item.string(QueryKey.label) ?? ""
        let label = named.applicationLabel
        if item.string(QueryKey.tokenID) == KeyItem.secureEnclaveTokenID {
            guard let publicKey = try? AsymmetricKey(externalRepresentation: named.publicKeyBytes, type: type, keyClass: .publicKey) else { return nil }
            let key = AgentKey(
                publicKey: publicKey, blob: blob, comment: comment, tag: tag, tagData: tagData, applicationLabel: label, isKeychainMade: true)
            return AgentSigningKey(key: key, software: nil)
        }
        guard var bytes = item.takeData(QueryKey.valueData) else { throw AgentRefusal("the keychain answered no key bytes") }
        defer { bytes.zeroize() }
        let privateKey: AsymmetricKey
        do {
            privateKey = try opened.key(label: label, bytes: bytes, type: type)
        } catch {
            throw AgentRefusal("the key item's bytes are not a key")
        }
        let publicKey = privateKey.publicKey
        guard publicKey.publicKeyBytes == named.publicKeyBytes else { return nil }
        let key = AgentKey(
            publicKey: publicKey, blob: blob, comment: comment, tag: tag, tagData: tagData, applicationLabel: label, isKeychainMade: false)
        return AgentSigningKey(key: key, software: privateKey)
    }
}
