/// The keys only macOS's `SecItem` functions know (Apple's `OSX/libsecurity_keychain/lib/SecItemConstants.c`).
///
/// They never reach the keychain: ``MacOSShim`` removes each from a call's dictionary, as macOS does
/// before it hands the dictionary to the data-protection keychain.
enum MacOSKey {
    /// `kSecUseKeychain`: the `SecKeychain` to add to or search.
    static let useKeychain = "u_Keychain"
    /// `kSecAttrAccess`: the legacy `SecAccess` (an access control list of trusted applications).
    static let access = "acls"
    /// `kSecMatchDiacriticInsensitive`.
    static let matchDiacriticInsensitive = "m_DiacriticInsensitive"
    /// `kSecMatchWidthInsensitive`.
    static let matchWidthInsensitive = "m_WidthInsensitive"
    /// `kSecMatchSubjectStartsWith`.
    static let matchSubjectStartsWith = "m_SubjectStartsWith"
    /// `kSecMatchSubjectEndsWith`.
    static let matchSubjectEndsWith = "m_SubjectEndsWith"
    /// `kSecMatchSubjectWholeString`.
    static let matchSubjectWholeString = "m_SubjectWholeString"

    /// Apple's constant name for a key the macOS checks name in their reasons; the code itself otherwise.
    static func appleName(of key: String) -> String {
        let names = [
            useKeychain: "kSecUseKeychain", access: "kSecAttrAccess", matchDiacriticInsensitive: "kSecMatchDiacriticInsensitive",
            matchWidthInsensitive: "kSecMatchWidthInsensitive", matchSubjectStartsWith: "kSecMatchSubjectStartsWith",
            matchSubjectEndsWith: "kSecMatchSubjectEndsWith", matchSubjectWholeString: "kSecMatchSubjectWholeString",
            "m_ItemList": "kSecMatchItemList", "m_SearchList": "kSecMatchSearchList", "u_ItemList": "kSecUseItemList",
        ]
        return names[key] ?? key
    }
}
