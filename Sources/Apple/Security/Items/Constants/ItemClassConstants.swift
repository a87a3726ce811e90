import Foundation
import Query

// Apple's item classes (keychain reference §1.1).
// `nonisolated(unsafe)`: see CFString+ItemConstants.swift.

/// The dictionary key of the item class (`class`).
nonisolated(unsafe) public let kSecClass: CFString = .constant(QueryKey.itemClass)
/// A generic password (`genp`).
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = .constant(QueryConstant.classGenericPassword)
/// An internet password (`inet`).
nonisolated(unsafe) public let kSecClassInternetPassword: CFString = .constant(QueryConstant.classInternetPassword)
/// A certificate (`cert`).
nonisolated(unsafe) public let kSecClassCertificate: CFString = .constant(QueryConstant.classCertificate)
/// A cryptographic key (`keys`).
nonisolated(unsafe) public let kSecClassKey: CFString = .constant(QueryConstant.classKey)
/// An identity: a certificate with its private key (`idnt`).
nonisolated(unsafe) public let kSecClassIdentity: CFString = .constant(QueryConstant.classIdentity)
