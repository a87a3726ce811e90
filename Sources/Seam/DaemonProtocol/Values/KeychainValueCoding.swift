import Foundation
import KeychainModel
import Query

/// The canonical binary encoding of `KeychainValue` and `QueryDictionary`.
///
/// Each value is a one-byte tag and its content; integers are big-endian, lengths and counts UInt32.
///
/// | tag | value | content |
/// | --- | --- | --- |
/// | `00` | `.null` | — |
/// | `01` / `02` | `.bool(false)` / `.bool(true)` | — |
/// | `03` | `.string` | length, UTF-8 |
/// | `04` | `.data` | length, bytes |
/// | `05` | `.number` | Int64 |
/// | `06` | `.double` | the IEEE 754 bit pattern, UInt64 |
/// | `07` | `.date` | `timeIntervalSinceReferenceDate`'s bit pattern, UInt64 |
/// | `08` | `.uuid` | 16 bytes |
/// | `09` | `.array` | count, values |
/// | `0A` | `.dictionary` | count, then per entry the key (length, UTF-8) and the value |
/// | `0B` | `.accessControl` | the protection's AppleKeyStore class number (6–12, one byte), flags UInt64 |
/// | `0C` | `.unsupported` | the type name (length, UTF-8) |
/// | `0D` | `.itemReference` | the item class code (length, UTF-8), the attributes as a `.dictionary`'s content, then `00` (no data) or `01` and the data (length, bytes) |
///
/// A `QueryDictionary` is a count, then per entry the key and the value, each an encoded `KeychainValue`,
/// so non-string keys reach the daemon's parser and get Apple's status there.
///
/// Canonical form: dictionary entries are sorted by their encoded key bytes (string keys by their UTF-8
/// bytes), strictly ascending. Decoding accepts only that order, so every value has exactly one encoding
/// and `encode(decode(bytes)) == bytes` whenever decoding succeeds (the fuzzer checks this). Two keys
/// with different bytes that Swift considers the same key (Unicode-equivalent strings, `0.0` and `-0.0`)
/// are ``MalformedPayload/duplicateKey``. Doubles and dates travel as bit patterns, so `-0.0`, infinities
/// and NaN payloads survive exactly.
enum KeychainValueCoding {
    /// Writes `value`, which sits inside `depth` arrays or dictionaries.
    static func encode(_ value: KeychainValue, depth: Int, into writer: inout WireWriter) throws(ProtocolError) {
        try writer.countValue()
        switch value {
        case .null: writer.byte(ValueTag.null)
        case .bool(let flag): writer.byte(flag ? ValueTag.true : ValueTag.false)
        case .string(let text):
            writer.byte(ValueTag.string)
            try writer.text(text)
        case .data(let bytes):
            writer.byte(ValueTag.data)
            try writer.bytes(bytes)
        case .number(let integer):
            writer.byte(ValueTag.number)
            writer.int64(integer)
        case .double(let real):
            writer.byte(ValueTag.double)
            writer.uint64(real.bitPattern)
        case .date(let moment):
            writer.byte(ValueTag.date)
            writer.uint64(moment.timeIntervalSinceReferenceDate.bitPattern)
        case .uuid(let identifier):
            writer.byte(ValueTag.uuid)
            withUnsafeBytes(of: identifier.uuid) { writer.raw($0) }
        case .array(let elements):
            try writer.checkNesting(below: depth)
            writer.byte(ValueTag.array)
            try writer.count(elements.count)
            for element in elements { try encode(element, depth: depth + 1, into: &writer) }
        case .dictionary(let entries):
            try writer.checkNesting(below: depth)
            writer.byte(ValueTag.dictionary)
            try encodeEntries(entries, depth: depth, into: &writer)
        case .accessControl(let control):
            writer.byte(ValueTag.accessControl)
            writer.protection(control.protection)
            writer.uint64(control.flags.rawValue)
        case .itemReference(let reference):
            try writer.checkNesting(below: depth)
            writer.byte(ValueTag.itemReference)
            try writer.text(reference.itemClass.rawValue)
            try encodeEntries(reference.attributes, depth: depth, into: &writer)
            writer.bool(reference.data != nil)
            if let data = reference.data { try writer.bytes(data) }
        case .unsupported(let typeName):
            writer.byte(ValueTag.unsupported)
            try writer.text(typeName)
        }
    }

    /// A dictionary's content at `depth`: the count, then per entry, in ascending order of the key's UTF-8
    /// bytes, the key (length, UTF-8) and the value.
    private static func encodeEntries(
        _ entries: [String: KeychainValue], depth: Int, into writer: inout WireWriter
    ) throws(ProtocolError) {
        try writer.count(entries.count)
        for key in entries.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            try writer.text(key)
            try encode(entries[key]!, depth: depth + 1, into: &writer)
        }
    }

    /// Reads a value that sits inside `depth` arrays or dictionaries.
    static func decode(depth: Int, from reader: inout WireReader) throws(ProtocolError) -> KeychainValue {
        try reader.countValue()
        let tag = try reader.byte()
        switch tag {
        case ValueTag.null: return .null
        case ValueTag.false: return .bool(false)
        case ValueTag.true: return .bool(true)
        case ValueTag.string: return .string(try reader.text())
        case ValueTag.data: return .data(try reader.data())
        case ValueTag.number: return .number(try reader.int64())
        case ValueTag.double: return .double(Double(bitPattern: try reader.uint64()))
        case ValueTag.date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.uint64())))
        case ValueTag.uuid: return .uuid(try decodeUUID(from: &reader))
        case ValueTag.array: return .array(try decodeArray(depth: depth, from: &reader))
        case ValueTag.dictionary: return .dictionary(try decodeDictionary(depth: depth, from: &reader))
        case ValueTag.accessControl:
            let protection = try reader.protection()
            return .accessControl(AccessControl(protection: protection, flags: .init(rawValue: try reader.uint64())))
        case ValueTag.itemReference: return .itemReference(try decodeReference(depth: depth, from: &reader))
        case ValueTag.unsupported: return .unsupported(typeName: try reader.text())
        default: throw .malformedPayload(.unknownValueTag(tag))
        }
    }

    private static func decodeReference(depth: Int, from reader: inout WireReader) throws(ProtocolError) -> ItemReference {
        guard let itemClass = ItemClass(rawValue: try reader.text()) else {
            throw .malformedPayload(.invalidField("item class"))
        }
        let attributes = try decodeDictionary(depth: depth, from: &reader)
        let data = try reader.bool("item reference data") ? try reader.data() : nil
        return ItemReference(itemClass: itemClass, attributes: attributes, data: data)
    }

    /// Writes a query or attribute dictionary (itself one level of nesting).
    static func encode(_ dictionary: QueryDictionary, into writer: inout WireWriter) throws(ProtocolError) {
        try writer.checkNesting(below: 0)
        if try encodeStringKeyed(dictionary, into: &writer) { return }
        var encodedEntries: [(key: [UInt8], value: KeychainValue)] = []
        encodedEntries.reserveCapacity(dictionary.count)
        for (key, value) in dictionary.entries {
            var keyWriter = WireWriter(limits: writer.limits)
            try encode(key, depth: 1, into: &keyWriter)
            try writer.countValues(of: keyWriter)
            encodedEntries.append((keyWriter.output, value))
        }
        encodedEntries.sort { WireOrder.precedes($0.key, $1.key) }
        try writer.count(encodedEntries.count)
        for entry in encodedEntries {
            entry.key.withUnsafeBytes { writer.raw($0) }
            try encode(entry.value, depth: 1, into: &writer)
        }
    }

    /// ``encode(_:into:)`` for a dictionary whose keys are all strings (nearly every one), without encoding each
    /// key on its own to sort them: an encoded string key is its tag, its length and its UTF-8 bytes, so the
    /// canonical order is that of the keys' lengths, then of their bytes. False, having written nothing, when a
    /// key is not a string.
    private static func encodeStringKeyed(_ dictionary: QueryDictionary, into writer: inout WireWriter) throws(ProtocolError) -> Bool {
        var entries: [(key: String, value: KeychainValue)] = []
        entries.reserveCapacity(dictionary.count)
        for (key, value) in dictionary.entries {
            guard case .string(let name) = key else { return false }
            entries.append((name, value))
        }
        entries.sort { first, second in
            let (left, right) = (first.key.utf8, second.key.utf8)
            return left.count != right.count ? left.count < right.count : left.lexicographicallyPrecedes(right)
        }
        try writer.count(entries.count)
        for entry in entries {
            try encode(.string(entry.key), depth: 1, into: &writer)
            try encode(entry.value, depth: 1, into: &writer)
        }
        return true
    }

    /// Reads a query or attribute dictionary.
    static func decodeQueryDictionary(from reader: inout WireReader) throws(ProtocolError) -> QueryDictionary {
        try reader.checkNesting(below: 0)
        let count = try reader.count(minimumElementSize: 2)
        var entries: [KeychainValue: KeychainValue] = Dictionary(minimumCapacity: count)
        var previousKey: Range<Int>?
        for _ in 0..<count {
            let keyStart = reader.position
            let key = try decode(depth: 1, from: &reader)
            let keyBytes = keyStart..<reader.position
            try checkAscending(previousKey, keyBytes, in: reader)
            previousKey = keyBytes
            guard entries.updateValue(try decode(depth: 1, from: &reader), forKey: key) == nil else {
                throw .malformedPayload(.duplicateKey)
            }
        }
        return QueryDictionary(entries)
    }

    private static func decodeArray(depth: Int, from reader: inout WireReader) throws(ProtocolError) -> [KeychainValue] {
        try reader.checkNesting(below: depth)
        let count = try reader.count(minimumElementSize: 1)
        var elements: [KeychainValue] = []
        for _ in 0..<count { elements.append(try decode(depth: depth + 1, from: &reader)) }
        return elements
    }

    private static func decodeDictionary(
        depth: Int, from reader: inout WireReader
    ) throws(ProtocolError) -> [String: KeychainValue] {
        try reader.checkNesting(below: depth)
        let count = try reader.count(minimumElementSize: 5)
        var entries: [String: KeychainValue] = Dictionary(minimumCapacity: count)
        var previousKey: Range<Int>?
        for _ in 0..<count {
            let keyBytes = try reader.lengthPrefixed()
            try checkAscending(previousKey, keyBytes, in: reader)
            previousKey = keyBytes
            let key = try reader.text(in: keyBytes)
            guard entries.updateValue(try decode(depth: depth + 1, from: &reader), forKey: key) == nil else {
                throw .malformedPayload(.duplicateKey)
            }
        }
        return entries
    }

    private static func decodeUUID(from reader: inout WireReader) throws(ProtocolError) -> UUID {
        let bytes = reader.bytes(in: try reader.take(16))
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { $0.copyBytes(from: bytes) }
        return UUID(uuid: uuid)
    }

    /// Entries must come in strictly ascending order of their key bytes.
    private static func checkAscending(
        _ previous: Range<Int>?, _ current: Range<Int>, in reader: WireReader
    ) throws(ProtocolError) {
        guard let previous else { return }
        guard reader.precedes(previous, current) else {
            throw .malformedPayload(.keysOutOfOrder)
        }
    }
}
