import Foundation

// Apple's key attribute keys (keychain reference §1.3).
// `nonisolated(unsafe)`: see CFString+ItemConstants.swift.

/// The key class: one of the `kSecAttrKeyClass…` values (`kcls`).
nonisolated(unsafe) public let kSecAttrKeyClass: CFString = .schemaAttribute("kSecAttrKeyClass")
/// The key's label, normally the SHA-1 of its public key (`klbl`).
nonisolated(unsafe) public let kSecAttrApplicationLabel: CFString = .schemaAttribute("kSecAttrApplicationLabel")
/// Application data that tags the key (`atag`).
nonisolated(unsafe) public let kSecAttrApplicationTag: CFString = .schemaAttribute("kSecAttrApplicationTag")
/// The key's creator (`crtr`, the same string as ``kSecAttrCreator``).
nonisolated(unsafe) public let kSecAttrKeyCreator: CFString = .schemaAttribute("kSecAttrKeyCreator")
/// The key's algorithm: one of the `kSecAttrKeyType…` values (`type`, the same string as ``kSecAttrType``).
nonisolated(unsafe) public let kSecAttrKeyType: CFString = .schemaAttribute("kSecAttrKeyType")
/// The key size in bits (`bsiz`).
nonisolated(unsafe) public let kSecAttrKeySizeInBits: CFString = .schemaAttribute("kSecAttrKeySizeInBits")
/// The effective key size in bits (`esiz`).
nonisolated(unsafe) public let kSecAttrEffectiveKeySize: CFString = .schemaAttribute("kSecAttrEffectiveKeySize")
/// Whether the key is stored in the keychain (`perm`).
nonisolated(unsafe) public let kSecAttrIsPermanent: CFString = .schemaAttribute("kSecAttrIsPermanent")
/// `priv` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrIsPrivate: CFString = .schemaAttribute("kSecAttrIsPrivate")
/// `modi` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrIsModifiable: CFString = .schemaAttribute("kSecAttrIsModifiable")
/// `sdat` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrStartDate: CFString = .schemaAttribute("kSecAttrStartDate")
/// `edat` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrEndDate: CFString = .schemaAttribute("kSecAttrEndDate")
/// Whether the key can be exported only wrapped (`sens`).
nonisolated(unsafe) public let kSecAttrIsSensitive: CFString = .schemaAttribute("kSecAttrIsSensitive")
/// `asen` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrWasAlwaysSensitive: CFString = .schemaAttribute("kSecAttrWasAlwaysSensitive")
/// Whether the key can be exported (`extr`).
nonisolated(unsafe) public let kSecAttrIsExtractable: CFString = .schemaAttribute("kSecAttrIsExtractable")
/// `next` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrWasNeverExtractable: CFString = .schemaAttribute("kSecAttrWasNeverExtractable")
/// Whether the key can encrypt (`encr`).
nonisolated(unsafe) public let kSecAttrCanEncrypt: CFString = .schemaAttribute("kSecAttrCanEncrypt")
/// Whether the key can decrypt (`decr`).
nonisolated(unsafe) public let kSecAttrCanDecrypt: CFString = .schemaAttribute("kSecAttrCanDecrypt")
/// Whether the key can derive keys (`drve`).
nonisolated(unsafe) public let kSecAttrCanDerive: CFString = .schemaAttribute("kSecAttrCanDerive")
/// Whether the key can sign (`sign`).
nonisolated(unsafe) public let kSecAttrCanSign: CFString = .schemaAttribute("kSecAttrCanSign")
/// Whether the key can verify (`vrfy`).
nonisolated(unsafe) public let kSecAttrCanVerify: CFString = .schemaAttribute("kSecAttrCanVerify")
/// `snrc` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrCanSignRecover: CFString = .schemaAttribute("kSecAttrCanSignRecover")
/// `vyrc` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrCanVerifyRecover: CFString = .schemaAttribute("kSecAttrCanVerifyRecover")
/// Whether the key can wrap keys (`wrap`).
nonisolated(unsafe) public let kSecAttrCanWrap: CFString = .schemaAttribute("kSecAttrCanWrap")
/// Whether the key can unwrap keys (`unwp`).
nonisolated(unsafe) public let kSecAttrCanUnwrap: CFString = .schemaAttribute("kSecAttrCanUnwrap")
