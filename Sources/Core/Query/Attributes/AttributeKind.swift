/// How an attribute's values are coerced and stored (Apple's `SecDbAttrKind`, §1.2).
public enum AttributeKind: Sendable, Hashable {
    /// String or data kept as given; numbers kept as numbers. Compared by bytes.
    case blob
    /// Always data: strings become UTF-8, numbers four little-endian bytes.
    case data
    /// Always text: data is decoded as UTF-8, a UUID becomes its string form.
    case string
    /// A number; booleans become 0/1, decimal strings become integers, other strings stay text.
    case number
    /// A date (`CFDate` only).
    case date
    /// The creation date, set by the keychain on add.
    case creationDate
    /// The modification date, set by the keychain on add and update.
    case modificationDate
    /// The protection class string (`pdmn`).
    case access
    /// The synchronizable flag (`sync`), coerced like a number.
    case sync
    /// The tombstone flag (`tomb`), coerced like a number.
    case tombstone
    /// Sixteen bytes or empty data (`musr`, `persistref`).
    case uuid
    /// A 20-byte SHA-1 digest (`sha1`).
    case sha1
    /// A `SecAccessControl` (`accc`).
    case accessControl

    /// Whether Apple compares values of this kind by their bytes (`copyData`), so that a string and data
    /// with the same bytes are equal.
    public var comparesBytes: Bool {
        switch self {
        case .blob, .data, .uuid, .sha1: true
        default: false
        }
    }
}
