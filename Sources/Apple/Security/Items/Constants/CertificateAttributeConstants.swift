import Foundation

// Apple's certificate attribute keys (keychain reference §1.3).
// `nonisolated(unsafe)`: see CFString+ItemConstants.swift.

/// The certificate type (`ctyp`).
nonisolated(unsafe) public let kSecAttrCertificateType: CFString = .schemaAttribute("kSecAttrCertificateType")
/// The certificate encoding (`cenc`).
nonisolated(unsafe) public let kSecAttrCertificateEncoding: CFString = .schemaAttribute("kSecAttrCertificateEncoding")
/// The certificate's normalized subject (`subj`).
nonisolated(unsafe) public let kSecAttrSubject: CFString = .schemaAttribute("kSecAttrSubject")
/// The certificate's normalized issuer (`issr`).
nonisolated(unsafe) public let kSecAttrIssuer: CFString = .schemaAttribute("kSecAttrIssuer")
/// The certificate's serial number (`slnr`).
nonisolated(unsafe) public let kSecAttrSerialNumber: CFString = .schemaAttribute("kSecAttrSerialNumber")
/// The certificate's subject key identifier (`skid`).
nonisolated(unsafe) public let kSecAttrSubjectKeyID: CFString = .schemaAttribute("kSecAttrSubjectKeyID")
/// The SHA-1 of the certificate's public key (`pkhh`).
nonisolated(unsafe) public let kSecAttrPublicKeyHash: CFString = .schemaAttribute("kSecAttrPublicKeyHash")
