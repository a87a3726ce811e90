import KeychainModel

/// The bytes a row tag authenticates (format in ``ItemCrypto``), built in one buffer.
///
/// The read path appends straight from SQLite's column memory and reuses one message for every row of
/// a selection, so checking a tag copies each column once and allocates nothing per row.
struct RowTagMessage {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Empties the message (keeping its room) and writes the row's protection class.
    mutating func start(protection: ProtectionClass) {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(UInt8(protection.keyclassNumber))
    }

    /// Appends `lp(part)`: the persistent reference, the uniqueness digest, the wrapped key or a sealed blob.
    mutating func appendPart(_ part: UnsafeRawBufferPointer) {
        ItemCrypto.Indexer.appendLength(part.count, to: &bytes)
        bytes.append(contentsOf: part)
    }

    /// Appends `lp(code) ‖ lp(value)` for a non-NULL index column; `code` is ``lengthPrefixed(_:)`` of its code.
    mutating func appendIndex(code: [UInt8], value: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: code)
        appendPart(value)
    }

    /// `lp(code)`, as ``appendIndex(code:value:)`` takes it.
    static func lengthPrefixed(_ code: String) -> [UInt8] {
        var prefixed: [UInt8] = []
        ItemCrypto.Indexer.appendLengthPrefixed(code, to: &prefixed)
        return prefixed
    }
}
