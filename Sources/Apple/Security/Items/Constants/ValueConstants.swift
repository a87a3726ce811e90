import Foundation
import Query

// Apple's value keys: an item's secret or a reference to it (keychain reference §2).
// `nonisolated(unsafe)`: see CFString+ItemConstants.swift.

/// The item's secret data.
nonisolated(unsafe) public let kSecValueData: CFString = .constant(QueryKey.valueData)
/// A key, certificate or identity object.
nonisolated(unsafe) public let kSecValueRef: CFString = .constant(QueryKey.valueRef)
/// A persistent reference that selects one item.
nonisolated(unsafe) public let kSecValuePersistentRef: CFString = .constant(QueryKey.valuePersistentRef)
