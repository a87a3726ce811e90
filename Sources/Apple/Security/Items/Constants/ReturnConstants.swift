import Foundation
import Query

// Apple's return keys: what a search or an add hands back (keychain reference §2).
// `nonisolated(unsafe)`: see CFString+ItemConstants.swift.

/// Return the item's data (`kCFBooleanTrue`).
nonisolated(unsafe) public let kSecReturnData: CFString = .constant(QueryKey.returnData)
/// Return the item's attributes (`kCFBooleanTrue`).
nonisolated(unsafe) public let kSecReturnAttributes: CFString = .constant(QueryKey.returnAttributes)
/// Return a reference to the key, certificate or identity (`kCFBooleanTrue`).
nonisolated(unsafe) public let kSecReturnRef: CFString = .constant(QueryKey.returnRef)
/// Return the item's persistent reference (`kCFBooleanTrue`).
nonisolated(unsafe) public let kSecReturnPersistentRef: CFString = .constant(QueryKey.returnPersistentRef)
