import Foundation
import KeychainClient
import KeychainModel
import Query

/// Reads an item's class, the attributes `attrList` names and its password (`SecKeychainItemCopyContent`).
///
/// - `itemClass`: receives ``SecItemClass/genericPasswordItemClass`` or ``SecItemClass/internetPasswordItemClass``.
/// - `attrList`: on entry each entry's `tag` names an attribute (``SecItemAttr``); on return its `length`
///   and `data` hold the value, or 0 and nil when the item has none. Text and bytes come as they are,
///   numbers as four native-endian bytes, `'ptcl'` as its four-character code, dates as the 16 bytes
///   `YYYYMMDDhhmmssZ` and a NUL, as macOS's file keychain gives them. A tag that is not an attribute of
///   the item's class is ``errSecNoSuchAttr``.
/// - `length`, `outData`: the password's length and a copy of it.
///
/// Free what it hands out with `SecKeychainItemFreeContent(attrList, outData)`, which zeroes it first.
/// Nothing is written unless the call succeeds; an item since deleted is ``errSecItemNotFound``.
@discardableResult
public func SecKeychainItemCopyContent(
    _ itemRef: SecKeychainItem, _ itemClass: UnsafeMutablePointer<SecItemClass>?,
    _ attrList: UnsafeMutablePointer<SecKeychainAttributeList>?, _ length: UnsafeMutablePointer<UInt32>?,
    _ outData: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> OSStatus {
    let entries: UnsafeMutableBufferPointer<SecKeychainAttribute> =
        attrList.flatMap { list in list.pointee.attr.map { UnsafeMutableBufferPointer(start: $0, count: Int(list.pointee.count)) } }
        ?? UnsafeMutableBufferPointer(start: nil, count: 0)
    var query = itemRef.search
    let call = "SecKeychainItemCopyContent(\(Diagnostics.render(query)))"
    let tags = entries.map(\.tag.fourCharacterText)
    if let unknown = tags.first(where: { AttributeCatalogue.descriptor(for: $0, in: itemRef.itemClass) == nil }) {
        return LegacyPasswordCall.refuse(call, .noSuchAttribute, reason: "'\(unknown)' is not an attribute of \(itemRef.itemClass.rawValue) items")
    }
    let wantsData = length != nil || outData != nil
    if !tags.isEmpty { query[QueryKey.returnAttributes] = .bool(true) }
    if wantsData { query[QueryKey.returnData] = .bool(true) }

    var found: [String: KeychainValue] = [:]
    var secret = Data()
    defer { secret.zeroize() }
    let status = LegacyPasswordCall.run(call) { client throws(KeychainFailure) in
        if tags.isEmpty && !wantsData {
            _ = try client.blocking.copyMatching(query)
            return
        }
        switch try client.blocking.copyMatching(query) {
        case .dictionary(let values)?:
            found = values
            secret = values[QueryKey.valueData]?.dataValue ?? Data()
        case .data(let bytes)?: secret = bytes
        default: break
        }
        found[QueryKey.valueData] = nil
    }
    guard status == errSecSuccess else { return status }

    let values = tags.map { LegacyAttributeBytes.bytes(of: found[$0], tag: $0) }
    var handedOut: [UnsafeMutableRawPointer] = []
    func giveBack() -> OSStatus {
        handedOut.forEach(LegacyPasswordCall.release)
        return LegacyPasswordCall.refuse(call, .allocate, reason: "no memory for the item's content")
    }
    var pointers: [UnsafeMutableRawPointer?] = []
    for value in values {
        guard let value else {
            pointers.append(nil)
            continue
        }
        guard let copy = LegacyPasswordCall.handOut(value) else { return giveBack() }
        handedOut.append(copy)
        pointers.append(copy)
    }
    if let outData {
        guard let copy = LegacyPasswordCall.handOut(secret) else { return giveBack() }
        outData.pointee = copy
    }
    length?.pointee = UInt32(secret.count)
    for (index, pointer) in pointers.enumerated() {
        entries[index].data = pointer
        entries[index].length = UInt32(values[index]?.count ?? 0)
    }
    itemClass?.pointee = itemRef.itemClass == .internetPassword ? .internetPasswordItemClass : .genericPasswordItemClass
    return errSecSuccess
}

/// An attribute's value as the bytes the legacy calls hand out for it.
enum LegacyAttributeBytes {
    /// The bytes for `value` under `tag`; nil when the item has no value.
    static func bytes(of value: KeychainValue?, tag: String) -> Data? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)? where tag == QueryKey.protocol:
            return FourCharCode(fourCharacterText: text).map(native) ?? Data(text.utf8)
        case .string(let text)?: return Data(text.utf8)
        case .data(let bytes)?: return bytes
        case .number(let number)?: return native(UInt32(truncatingIfNeeded: number))
        case .bool(let flag)?: return native(flag ? 1 : 0)
        case .double(let number)?: return native(UInt32(truncatingIfNeeded: Int64(number)))
        case .date(let date)?: return timeString(date)
        default: return nil
        }
    }

    private static func native(_ number: UInt32) -> Data { withUnsafeBytes(of: number) { Data($0) } }

    /// `YYYYMMDDhhmmssZ` and a NUL, in UTC.
    private static func timeString(_ date: Date) -> Data {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let text = String(
            format: "%04d%02d%02d%02d%02d%02dZ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0, parts.second ?? 0)
        return Data(text.utf8) + [0]
    }
}
