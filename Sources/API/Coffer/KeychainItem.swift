import Foundation
import Query

/// A class of keychain items as a Swift type: ``GenericPassword`` and ``InternetPassword``.
///
/// An item class is declared once: its properties, and its ``schema``, which lists each attribute with
/// Apple's `kSecAttr…` key and how its value is written and read back. ``ItemQuery`` and ``ItemChanges``
/// take their properties from the item through that list, and ``Keychain``'s methods work for every
/// class. The payload, ``value``, has a type of the class's own: `Data` for passwords.
///
/// Only Coffer's item classes conform: a schema is built inside Coffer, from the keys and rules the
/// keychain knows for the class.
///
/// Descriptions of an item (`description`, `debugDescription`, `dump(_:)`) show its attributes and
/// metadata, and its secret only by its length.
public protocol KeychainItem: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The payload kept with the item's attributes (`kSecValueData`): `Data` for passwords.
    associatedtype Value: Sendable, Hashable
    /// The class's attributes and payload, listed once.
    static var schema: ItemSchema<Self> { get }
    /// The payload. Empty in items read without their secrets (``Keychain/attributes(matching:)``).
    var value: Value { get set }
    /// `kSecAttrCreationDate`: when the item was added (set by the keychain).
    var creationDate: Date? { get }
    /// `kSecAttrModificationDate`: when the item last changed (set by the keychain).
    var modificationDate: Date? { get }
    /// The item's persistent reference (set by the keychain): stable across updates, usable in queries.
    var persistentReference: PersistentReference? { get }
}

extension KeychainItem {
    /// The item's attributes, with the secret shown only by its length.
    public var description: String { ItemDescription(self).text }
    /// Same as ``description``: the secret is never shown.
    public var debugDescription: String { description }
    /// A mirror without the secret's bytes, so `dump(_:)` does not print them.
    public var customMirror: Mirror { ItemDescription(self).mirror(of: self) }
}
