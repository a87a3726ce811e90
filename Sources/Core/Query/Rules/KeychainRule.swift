/// A rule of the keychain's reference (§3.2) that decides an answer other than success: G for every call, A for
/// `SecItemAdd`, C for `SecItemCopyMatching`, U for `SecItemUpdate`, D for `SecItemDelete`.
///
/// Refusals name the rule that decided them (``QueryRejection/rule``, the engine's reasons), so a message such as
/// `G13: kSecAttrAccessGroup "com.example.other" is not one of the caller's groups` can be looked up. The list is
/// closed and enumerable (``allCases``), in the shape of swift-certificates' `ErrorCode`: a struct over a private
/// enum, so that rules can be added without breaking code that names them.
public struct KeychainRule: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// The rule's number, such as `G13`.
    public var id: String { code.rawValue }

    /// The situation the rule covers, in a few words.
    public var situation: String { code.situation }

    /// ``id``.
    public var description: String { id }

    /// Every rule, in the reference's order.
    public static let allCases: [KeychainRule] = Code.allCases.map(KeychainRule.init)

    /// The rule numbered `id`, such as `"G13"`; nil for a number the reference does not have.
    public init?(id: String) {
        guard let code = Code(rawValue: id) else { return nil }
        self.init(code)
    }
}

extension KeychainRule {
    // Every call.
    /// G1: the caller has no keychain access groups (-34018).
    public static let g1 = KeychainRule(.g1)
    /// G2: no `kSecClass` and no persistent reference (-50).
    public static let g2 = KeychainRule(.g2)
    /// G3: a `kSecClass` the keychain does not know (-25306).
    public static let g3 = KeychainRule(.g3)
    /// G4: a four-character key that is no attribute of the class (-25303).
    public static let g4 = KeychainRule(.g4)
    /// G5: an attribute value of a type that cannot be converted (-50).
    public static let g5 = KeychainRule(.g5)
    /// G6: a key of no shape the keychain knows (-50).
    public static let g6 = KeychainRule(.g6)
    /// G7: a `kSecReturn…` value that is no boolean (-50).
    public static let g7 = KeychainRule(.g7)
    /// G8: a `kSecMatchLimit` that is neither a number nor One or All (-50).
    public static let g8 = KeychainRule(.g8)
    /// G9: `kSecAttrAccessible` and `kSecAttrAccessControl` together (-50).
    public static let g9 = KeychainRule(.g9)
    /// G10: a `kSecAttrAccessible` value that is no protection class (-50).
    public static let g10 = KeychainRule(.g10)
    /// G11: a `kSecAttrAccessControl` value that is no `SecAccessControl` (-50).
    public static let g11 = KeychainRule(.g11)
    /// G12: a `kSecValueRef` of a type the keychain does not store (-50).
    public static let g12 = KeychainRule(.g12)
    /// G13: an explicit `kSecAttrAccessGroup` outside the caller's groups (-34018).
    public static let g13 = KeychainRule(.g13)
    /// G14: an attribute only the keychain sets (`clip`) (-50).
    public static let g14 = KeychainRule(.g14)
    /// G15: too many keys in one dictionary (-50).
    public static let g15 = KeychainRule(.g15)
    /// G16: the item's class key is locked away (-25308).
    public static let g16 = KeychainRule(.g16)
    /// G17: the class key is missing from the keybag (-25291).
    public static let g17 = KeychainRule(.g17)
    /// G18: `kSecUseAuthenticationContext` with `kSecUseCredentialReference` (-50).
    public static let g18 = KeychainRule(.g18)
    /// G19: authentication is required and the call may not prompt (-25308).
    public static let g19 = KeychainRule(.g19)
    /// G20: the person cancelled (-128).
    public static let g20 = KeychainRule(.g20)
    /// G21: authentication failed (-25293).
    public static let g21 = KeychainRule(.g21)
    /// G22: `kSecUseAuthenticationUISkip` on a call that changes items (-50).
    public static let g22 = KeychainRule(.g22)

    // SecItemAdd.
    /// A1: an item with the same primary key exists (-25299).
    public static let a1 = KeychainRule(.a1)
    /// A2: the same, while the class is locked (-25308).
    public static let a2 = KeychainRule(.a2)
    /// A3: a `kSecValueData` that is no data (-50).
    public static let a3 = KeychainRule(.a3)
    /// A4: an access control with constraints on a synchronizable item (-50).
    public static let a4 = KeychainRule(.a4)
    /// A5: a passcode-only protection while no passcode is set (-25291).
    public static let a5 = KeychainRule(.a5)
    /// A6: a legacy persistent reference (-50).
    public static let a6 = KeychainRule(.a6)
    /// A7: the read-only token access group (-34018).
    public static let a7 = KeychainRule(.a7)
    /// A8: a password item's reference as `kSecValueRef` (-50).
    public static let a8 = KeychainRule(.a8)
    /// A9: `kSecMatch…` keys in an add: success, and nothing added.
    public static let a9 = KeychainRule(.a9)
    /// A10: an access control the keychain cannot bind (-50).
    public static let a10 = KeychainRule(.a10)
    /// A11: synchronizable with a this-device-only protection: accepted.
    public static let a11 = KeychainRule(.a11)

    // SecItemCopyMatching.
    /// C1: no item matches (-25300).
    public static let c1 = KeychainRule(.c1)
    /// C2: `kSecUseItemList` (-50).
    public static let c2 = KeychainRule(.c2)
    /// C3: a match key the class does not take (-4).
    public static let c3 = KeychainRule(.c3)
    /// C4: a persistent reference with attribute filters (-50).
    public static let c4 = KeychainRule(.c4)
    /// C5: a matching item is locked away (-25308).
    public static let c5 = KeychainRule(.c5)
    /// C6: a matching item needs authentication and the call skips it.
    public static let c6 = KeychainRule(.c6)
    /// C7: a matching item cannot be decrypted: skipped.
    public static let c7 = KeychainRule(.c7)
    /// C8: return keys without a result pointer: success.
    public static let c8 = KeychainRule(.c8)

    // SecItemUpdate.
    /// U1: `kSecReturn…` in an update's query (-50).
    public static let u1 = KeychainRule(.u1)
    /// U2: `kSecMatch…` in an update's query (-50).
    public static let u2 = KeychainRule(.u2)
    /// U3: `kSecUseItemList` in an update's query (-50).
    public static let u3 = KeychainRule(.u3)
    /// U4: a key in `attributesToUpdate` that is no attribute (-25303).
    public static let u4 = KeychainRule(.u4)
    /// U5: a `kSecValueData` to update that is no data (-50).
    public static let u5 = KeychainRule(.u5)
    /// U6: a new access group outside the caller's groups (-34018).
    public static let u6 = KeychainRule(.u6)
    /// U7: `kSecAttrSharingGroup` in `attributesToUpdate` (-50).
    public static let u7 = KeychainRule(.u7)
    /// U8: a legacy persistent reference with attribute filters (-50).
    public static let u8 = KeychainRule(.u8)
    /// U9: nothing matched (-25300).
    public static let u9 = KeychainRule(.u9)
    /// U10: the updated item's primary key collides with another item (-25299).
    public static let u10 = KeychainRule(.u10)
    /// U11: the collision is with a tombstone or a corrupt row: replaced.
    public static let u11 = KeychainRule(.u11)
    /// U12: a matched item is locked away (-25308).
    public static let u12 = KeychainRule(.u12)
    /// U13: an access control with constraints on a synchronizable item (-50).
    public static let u13 = KeychainRule(.u13)
    /// U14: `kSecUseAuthenticationUISkip` (-50).
    public static let u14 = KeychainRule(.u14)

    // SecItemDelete.
    /// D1: `kSecMatch…` keys other than All (-50).
    public static let d1 = KeychainRule(.d1)
    /// D2: a legacy persistent reference with attribute filters (-50).
    public static let d2 = KeychainRule(.d2)
    /// D3: nothing matched (-25300).
    public static let d3 = KeychainRule(.d3)
    /// D4: an item whose access control guards deletion: authentication.
    public static let d4 = KeychainRule(.d4)
    /// D5: return keys, data and item lists: ignored.
    public static let d5 = KeychainRule(.d5)
    /// D6: `kSecUseAuthenticationUISkip` (-50).
    public static let d6 = KeychainRule(.d6)
}
