import Foundation
import Query

/// Reads the dictionaries most callers pass from the objects they store (`NSDictionary.forEachStoredEntry(_:)`),
/// without Foundation's per-object unboxing.
///
/// A dictionary whose keys are all `NSString`s and whose values are all `NSString`s, booleans, `NSNumber`s and
/// `NSData`s (what a `[String: Any]` of strings, `Bool`s, integers and `Data` bridges to, and what the `kSec…`
/// constants are), or this module's ``ResultData``s handed back, is read here, each object recognised by its
/// exact class; any other gives nil, for ``ValueBridge`` to read the general way. The values are those the general
/// way gives: Foundation's `__SwiftValue.fetch` turns these objects into `String`, `Bool` and `Data` and leaves an
/// `NSNumber` as it is, and ``ValueBridge/value(of:)`` then makes the same ``KeychainValue``s.
enum PlainDictionaryReader {
    /// `dictionary` as the engine's dictionary; nil when it is not of Foundation's own dictionary classes or
    /// holds an object of another class.
    static func query(_ dictionary: NSDictionary) -> QueryDictionary? {
        var entries: [KeychainValue: KeychainValue] = Dictionary(minimumCapacity: dictionary.count)
        let readAll = dictionary.forEachStoredEntry { key, value in
            guard type(of: key) == NSString.self, let value = self.value(of: value) else { return false }
            entries[.string(unsafeDowncast(key, to: NSString.self) as String)] = value
            return true
        }
        return readAll == true ? QueryDictionary(entries) : nil
    }

    /// A stored object of one of the classes this reader knows, as the engine sees it; nil for any other.
    private static func value(of object: AnyObject) -> KeychainValue? {
        let objectClass: AnyObject.Type = type(of: object)
        if objectClass == NSString.self { return .string(unsafeDowncast(object, to: NSString.self) as String) }
        // `kCFBooleanTrue` and `kCFBooleanFalse` are the only objects of Foundation's boolean class.
        if object === kCFBooleanTrue { return .bool(true) }
        if object === kCFBooleanFalse { return .bool(false) }
        // A `ResultData` is a result of this module handed back (a persistent reference, an application label).
        if objectClass == NSData.self || objectClass == ResultData.self { return .data(unsafeDowncast(object, to: NSData.self) as Data) }
        if objectClass == NSNumber.self { return KeychainValue.bridgingCommonScalar(object) }
        return nil
    }
}
