internal import CoreFoundation
import Foundation

extension NSDictionary {
    /// Calls `body` with each key and value the dictionary stores, exactly as stored, until `body` answers false:
    /// without the `__SwiftValue.fetch` (two dynamic casts per object) of Foundation's readers on Linux, and without
    /// the `Any` box per object that `allKeys` and `allValues` make. Answers whether `body` saw every entry, or nil
    /// for subclasses of Foundation's own dictionary classes (whose entries Core Foundation would fetch and store again).
    ///
    /// It uses Core Foundation's `CFDictionaryGetKeysAndValues`, to which Foundation's own dictionaries are toll-free
    /// bridged and which reads their storage in the order `getObjects(_:andKeys:count:)` does. The dictionary keeps
    /// the objects alive while `body` runs.
    func forEachStoredEntry(_ body: (_ key: AnyObject, _ value: AnyObject) -> Bool) -> Bool? {
        let dictionaryClass = type(of: self)
        guard dictionaryClass == NSDictionary.self || dictionaryClass == NSMutableDictionary.self else { return nil }
        let count = self.count
        return withUnsafeTemporaryAllocation(of: UnsafeRawPointer?.self, capacity: 2 * count) { buffer in
            guard let keys = buffer.baseAddress else { return true }
            let values = keys + count
            CFDictionaryGetKeysAndValues(unsafeBitCast(self, to: CoreFoundation.CFDictionary.self), keys, values)
            for index in 0..<count {
                guard let key = keys[index], let value = values[index] else { return false }
                let keyObject = Unmanaged<AnyObject>.fromOpaque(key).takeUnretainedValue()
                guard body(keyObject, Unmanaged<AnyObject>.fromOpaque(value).takeUnretainedValue()) else { return false }
            }
            return true
        }
    }
}
