import Foundation
import KeyCrypto
import KeychainKeys
import KeychainModel
import Query

/// The public key of `key` (itself when it is public); nil only for a key without one.
public func SecKeyCopyPublicKey(_ key: SecKey) -> SecKey? {
    SecKey(key.handle.publicHandle)
}

/// The key's attributes (§7.1): class, type, sizes, application label, usage flags and `v_Data` (the
/// external representation) for a software key; `tkid`, `toid` and its access control for a Secure Enclave key, with
/// Coffer's ``kSecAttrCofferKeyHolder`` (inside the TPM, or sealed by the keystore).
public func SecKeyCopyAttributes(_ key: SecKey) -> CFDictionary? {
    var attributes = key.handle.attributeDictionary()
    if case .kept(let kept) = key.handle.storage {
        let holder = kept.handle.isHeldByTPM ? kSecAttrCofferKeyHolderTPM : kSecAttrCofferKeyHolderKeystore
        attributes[kSecAttrCofferKeyHolder as String] = .string(holder as String)
    }
    return ValueBridge.object(.dictionary(attributes)) as? NSDictionary
}

/// The key's block size in bytes: what Apple answers for its type and size (a Secure Enclave key: 32).
public func SecKeyGetBlockSize(_ key: SecKey) -> Int {
    key.handle.blockSize
}

/// The key's bytes as Apple exports them: X9.63 (`04‖X‖Y`, private keys `‖K`) for elliptic-curve keys,
/// PKCS#1 DER for RSA, the 32-byte point or seed for Ed25519. A Secure Enclave private key cannot be exported (`errSecUnimplemented`, as Apple's).
public func SecKeyCopyExternalRepresentation(_ key: SecKey, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> CFData? {
    KeyCall.run("SecKeyCopyExternalRepresentation", error: error) { () throws(KeychainFailure) -> CFData in
        ResultData(copying: try key.handle.externalRepresentation())
    }
}
