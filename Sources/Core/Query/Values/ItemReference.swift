import Foundation
import KeychainModel

/// What `kSecReturnRef` yields for an item whose class has a reference type: what Apple's client builds its
/// `SecKey` or `SecCertificate` (later `SecIdentity`) from (§2.4, §7.1, §7.3).
///
/// Apple's daemon answers a Ref with the item's attributes, its `class` and its `v_Data`, and the client
/// turns that dictionary into the object (`SecItemCreateFromAttributeDictionary`); a front end does the same
/// with this value. Passwords have no reference type: `kSecReturnRef` yields nothing for them.
public struct ItemReference: Sendable, Hashable {
    /// The item class (`keys` or `cert` today).
    public let itemClass: ItemClass
    /// The item's attributes as the result shows them (the CopyMatching projection, or SecItemAdd's), with
    /// `class` = the class's code.
    public let attributes: [String: KeychainValue]
    /// The item's `v_Data`: for a key, its external representation. Nil when the item has none.
    public let data: Data?

    /// A reference to an item of `itemClass` with these attributes and data.
    public init(itemClass: ItemClass, attributes: [String: KeychainValue], data: Data?) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.data = data
    }

    /// Whether items of `itemClass` have a reference type: keys, certificates and identities do; generic and
    /// internet passwords have none on iOS (`SecKeychainItemRef` is macOS's, §2.4).
    public static func exists(for itemClass: ItemClass) -> Bool {
        switch itemClass {
        case .genericPassword, .internetPassword: false
        case .certificate, .key, .identity: true
        }
    }
}

extension ItemReference {
    /// The name of the object Apple's API hands out for the reference (`SecKey`, …), for diagnostics.
    public var typeName: String {
        switch itemClass {
        case .key: "SecKey"
        case .certificate: "SecCertificate"
        case .identity: "SecIdentity"
        case .genericPassword, .internetPassword: "SecKeychainItem"
        }
    }
}
