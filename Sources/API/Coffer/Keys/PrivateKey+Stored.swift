import Query

extension PrivateKey {
    /// The attributes the keychain stores with a key item, listed once as the password classes list theirs:
    /// what ``Keychain/add(_:tag:label:accessGroup:accessibility:accessControl:)`` writes and every result is
    /// read back through.
    static let stored = StoredAttributes<PrivateKey>([
        ItemAttribute("applicationTag", \.applicationTag, QueryKey.applicationTag, .data),
        ItemAttribute("label", \.label, QueryKey.label, .text),
        ItemAttribute("accessGroup", \.accessGroup, QueryKey.accessGroup, .text),
        ItemAttribute("accessibility", \.accessibility, QueryKey.accessible, .protection),
        ItemAttribute("accessControl", \.accessControl, QueryKey.accessControl, .accessControl),
        ItemAttribute("persistentReference", \.persistentReference, QueryKey.valuePersistentRef, .persistentReference, metadata: true),
    ])
}
