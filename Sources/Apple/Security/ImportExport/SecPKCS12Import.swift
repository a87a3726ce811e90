import Foundation
import KeychainModel
import PKCS12

/// Reads the PKCS#12 (`.p12`, `.pfx`) file `pkcs12_data` with the passphrase in `options` and sets `items` to an
/// array with one dictionary per identity (private key with its certificate) in the file:
/// - ``kSecImportItemIdentity``: the ``SecIdentity`` (a software key, as Apple's import makes);
/// - ``kSecImportItemCertChain``: its chain, leaf first, as ``SecTrustCopyCertificateChain(_:)`` builds it from the
///   file's other certificates;
/// - ``kSecImportItemTrust``: a ``SecTrust`` of those certificates with ``SecPolicyCreateBasicX509()``, evaluated
///   (usually not trusted: a private CA is not an anchor);
/// - ``kSecImportItemLabel``: the key's or else the certificate's friendly name in the file, else the certificate's
///   subject summary;
/// - ``kSecImportItemKeyID``: the SHA-1 of the public key (the key's `kSecAttrApplicationLabel`), as macOS gives.
///
/// `options`: ``kSecImportExportPassphrase`` (a `CFString`; missing means the empty passphrase, as Apple's),
/// ``kSecImportToMemoryOnly`` (accepted; the import is always in memory); other keys are ignored. Certificates
/// without a key are not returned, as on iOS.
///
/// The import is in memory, as on iOS and on macOS with ``kSecImportToMemoryOnly``: nothing is added to the
/// keychain. Add an identity with `SecItemAdd([kSecValueRef: identity])`. macOS's default, importing into the
/// login keychain, is not done: Coffer has no file-based keychain to import into, and a library call that silently
/// writes keys to the keychain would bypass the app's choice of protection class and access control.
///
/// Statuses, as Apple's iOS code reports them: `errSecSuccess`; `errSecAuthFailed` when the MAC does not match
/// (wrong passphrase, or a changed file) and when the MAC's algorithm is not supported (Apple's check of the MAC
/// fails the same way); `errSecDecode` for bytes that are not a PKCS#12 file, a file without a MAC, contents
/// encrypted with an algorithm that is not supported or that libcrypto cannot provide (RC2 and RC4 without
/// OpenSSL's legacy provider), keys other than RSA and EC, and a key that does not belong to its certificate;
/// `errSecParam` when the passphrase is not a string. Accepted forms: see ``PKCS12Reader``.
public func SecPKCS12Import(_ pkcs12_data: CFData, _ options: CFDictionary, _ items: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    let passphrase: PKCS12Passphrase
    switch options[kSecImportExportPassphrase] {
    case nil:
        passphrase = PKCS12Passphrase("")
    case let text as String:
        passphrase = PKCS12Passphrase(text)
    case let text as NSString:
        passphrase = PKCS12Passphrase(text as String)
    default:
        Diagnostics.log("SecPKCS12Import", status: .param, reason: "kSecImportExportPassphrase is not a string")
        return errSecParam
    }
    do {
        let contents = try PKCS12Reader.read(pkcs12_data.contiguousData, passphrase: passphrase)
        let imported = try PKCS12Identities.items(of: contents)
        items.pointee = NSArray(array: imported)
        Diagnostics.log("SecPKCS12Import", status: .success, result: "\(imported.count) identities")
        return errSecSuccess
    } catch let error as PKCS12Error {
        let status = PKCS12Identities.status(of: error)
        Diagnostics.log("SecPKCS12Import", status: status, reason: error.reason)
        return status.code
    } catch let failure as PKCS12Identities.Failure {
        Diagnostics.log("SecPKCS12Import", status: .decode, reason: failure.reason)
        return errSecDecode
    } catch {
        Diagnostics.log("SecPKCS12Import", status: .internal, reason: "\(type(of: error))")
        return errSecInternal
    }
}
