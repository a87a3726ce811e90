import Foundation

// Apple's SecImportExport.h keys, with Apple's values (SecImportExport.c).
// `nonisolated(unsafe)`: see CFString+ItemConstants.swift.

/// In the options of ``SecPKCS12Import(_:_:_:)``: the file's passphrase, a `CFString`.
nonisolated(unsafe) public let kSecImportExportPassphrase: CFString = .constant("passphrase")
/// In the options of ``SecPKCS12Import(_:_:_:)``: `kCFBooleanTrue` keeps the import in memory (macOS's option).
/// Coffer's import is always in memory, so the key is accepted and changes nothing.
nonisolated(unsafe) public let kSecImportToMemoryOnly: CFString = .constant("memory")
/// In an imported item: a `CFString` label for people.
nonisolated(unsafe) public let kSecImportItemLabel: CFString = .constant("label")
/// In an imported item: a `CFData` key ID, the SHA-1 of the public key.
nonisolated(unsafe) public let kSecImportItemKeyID: CFString = .constant("keyid")
/// In an imported item: a ``SecTrust`` of the identity's certificate and the file's other certificates, with
/// the basic X.509 policy, already evaluated (not necessarily trusted).
nonisolated(unsafe) public let kSecImportItemTrust: CFString = .constant("trust")
/// In an imported item: a `CFArray` of ``SecCertificate``, the identity's chain, leaf first.
nonisolated(unsafe) public let kSecImportItemCertChain: CFString = .constant("chain")
/// In an imported item: the ``SecIdentity``.
nonisolated(unsafe) public let kSecImportItemIdentity: CFString = .constant("identity")
