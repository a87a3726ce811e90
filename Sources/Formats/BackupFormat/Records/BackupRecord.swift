import Foundation
import KeychainModel

/// One item in a backup: its class, its protection class, its attributes in the keychain's own attribute
/// encoding (every attribute it keeps, dates and access group included) and its value data as stored (a
/// secret sealed with an application password stays sealed).
public struct BackupRecord: Sendable, Equatable {
    /// The item class (a stored class: generic or internet password, certificate, key).
    public var itemClass: ItemClass
    /// The protection class (`kSecAttrAccessible`); only classes that migrate are ever written.
    public var protection: ProtectionClass
    /// The attributes, encoded as the keychain seals them (Query's `AttributeSet` encoding).
    public var attributes: Data
    /// The value data, or nil when the item has none.
    public var secret: Data?

    /// A record.
    public init(itemClass: ItemClass, protection: ProtectionClass, attributes: Data, secret: Data?) {
        self.itemClass = itemClass
        self.protection = protection
        self.attributes = attributes
        self.secret = secret
    }
}
