/// The tag of an item attribute in the legacy calls: the attribute's four-character code
/// (`'acct'`, `'svce'`, `'srvr'`, `'labl'`, …), the same four characters `kSecAttr…` keys hold.
public typealias SecKeychainAttrType = OSType

/// One attribute for the legacy item calls (`SecKeychainAttribute`): its tag and `length` bytes at `data`.
public struct SecKeychainAttribute {
    /// Which attribute: its four-character code.
    public var tag: SecKeychainAttrType
    /// The number of bytes at `data`.
    public var length: UInt32
    /// The value's bytes: text for string attributes, a native-endian `UInt32` for numbers.
    public var data: UnsafeMutableRawPointer?

    /// An attribute with all fields zero.
    public init() {
        tag = 0
        length = 0
        data = nil
    }

    /// An attribute with the given tag and value.
    public init(tag: SecKeychainAttrType, length: UInt32, data: UnsafeMutableRawPointer?) {
        self.tag = tag
        self.length = length
        self.data = data
    }
}

/// A list of attributes (`SecKeychainAttributeList`): `count` entries at `attr`.
public struct SecKeychainAttributeList {
    /// The number of entries at `attr`.
    public var count: UInt32
    /// The entries.
    public var attr: UnsafeMutablePointer<SecKeychainAttribute>?

    /// An empty list.
    public init() {
        count = 0
        attr = nil
    }

    /// A list of `count` entries at `attr`.
    public init(count: UInt32, attr: UnsafeMutablePointer<SecKeychainAttribute>?) {
        self.count = count
        self.attr = attr
    }
}
