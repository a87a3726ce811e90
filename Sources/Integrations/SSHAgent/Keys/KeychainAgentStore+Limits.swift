import Foundation
import Security

extension KeychainAgentStore {
    /// Limits `key` to the programs with one of `groups` (nil: every program of the user may use it), by rewriting the
    /// tag of its items (the private and the public half). Returns the key as now stored.
    @discardableResult
    public func setAllowedGroups(_ groups: [String]?, of key: AgentKey) throws(AgentRefusal) -> AgentKey {
        var tag = key.tag
        tag.allowedGroups = groups.flatMap { $0.isEmpty ? nil : $0 }
        let newTag = tag.data
        try onClient { () throws(AgentRefusal) in
            let status = SecItemUpdate(
                [
                    kSecClass as String: kSecClassKey, kSecAttrApplicationLabel as String: key.applicationLabel,
                    kSecAttrApplicationTag as String: key.tagData,
                ] as CFDictionary, [kSecAttrApplicationTag as String: newTag] as CFDictionary)
            guard status == errSecSuccess else { throw AgentRefusal("the keychain did not change the key's limit (status \(status))") }
        }
        return AgentKey(
            publicKey: key.publicKey, blob: key.blob, comment: key.comment, tag: tag, tagData: newTag,
            applicationLabel: key.applicationLabel, isKeychainMade: key.isKeychainMade)
    }
}
