import Foundation
import KeychainKeys
import KeyCrypto
import KeychainClient
import KeychainModel
import KeychainOperations
import Query

/// Generates a key pair and returns its private key (`SecKeyCreateRandomKey`).
///
/// `kSecAttrKeyType` is `kSecAttrKeyTypeECSECPrimeRandom` (P-256, P-384, P-521), `kSecAttrKeyTypeRSA`
/// (1024–4096 bits) or `kSecAttrKeyTypeEd25519` (its size is always 256), `kSecAttrKeySizeInBits` the size. With
/// `kSecAttrTokenID = kSecAttrTokenIDSecureEnclave` the key is a P-256 key made inside the keychain (in cofferd's
/// process with the daemon), whose private part never leaves it; `kSecAttrAccessControl` in
/// `kSecPrivateKeyAttrs` says what using it needs. Coffer's keychain also makes Ed25519 keys that way, which
/// Apple's Secure Enclave does not.
///
/// A half whose attributes (its sub-dictionary, with the top-level entries merged in) set `kSecAttrIsPermanent`
/// to true is stored as a `kSecClassKey` item; a Secure Enclave private key is stored unless it says false.
/// The public key is stored first; if storing fails, nothing is returned and `error` says why.
public func SecKeyCreateRandomKey(_ parameters: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? {
    KeyCall.run("SecKeyCreateRandomKey", error: error) { () throws(KeychainFailure) -> SecKey in
        let request = KeyGenerationParameters(ValueBridge.query(parameters))
        let privateKey = try KeyGeneration.privateKey(for: request)
        if KeyGenerationParameters.isPermanent(request.publicAttributes, default: false) {
            var attributes = request.publicAttributes
            attributes[QueryKey.tokenID] = nil
            try KeyGeneration.store(privateKey.handle.publicHandle, attributes)
        }
        if KeyGenerationParameters.isPermanent(request.privateAttributes, default: request.privateAttributes[QueryKey.tokenID] != nil) {
            try KeyGeneration.store(privateKey.handle, request.privateAttributes)
        }
        return privateKey
    }
}

/// Generates a key pair (`SecKeyGeneratePair`, the older form of ``SecKeyCreateRandomKey(_:_:)``): the
/// status, and both keys through the pointers.
@discardableResult
public func SecKeyGeneratePair(
    _ parameters: CFDictionary, _ publicKey: UnsafeMutablePointer<SecKey?>?, _ privateKey: UnsafeMutablePointer<SecKey?>?
) -> OSStatus {
    var error: Unmanaged<CFError>?
    guard let key = SecKeyCreateRandomKey(parameters, &error) else {
        return OSStatus(error.map { CFErrorGetCode($0.takeRetainedValue()) } ?? Int(errSecInternalComponent))
    }
    privateKey?.pointee = key
    publicKey?.pointee = SecKeyCopyPublicKey(key)
    return errSecSuccess
}

/// Key generation and storage, as Apple's `SecKeyCreateRandomKey` does them.
enum KeyGeneration {
    /// The private key `request` asks for: a software key here, or a key the keychain keeps (of a kind its
    /// rule allows: P-256 as Apple's Secure Enclave, or Ed25519, which Coffer's keychain also keeps).
    static func privateKey(for request: KeyGenerationParameters) throws(KeychainFailure) -> SecKey {
        if let tokenID = request.tokenID {
            guard tokenID == KeyItem.secureEnclaveTokenID else {
                throw KeychainFailure(.itemNotFound, reason: "Failed to generate keypair: no token \(tokenID) (only kSecAttrTokenIDSecureEnclave is available)")
            }
            guard let type = request.generatedType else {
                throw KeychainFailure(.param, reason: "Failed to generate keypair: \(TokenKeyCreation.Kind.rule)")
            }
            let kind = try KeyHandle.keptKind(type: type, sizeInBits: size(of: type, request))
            // A key stored as an item lives as long as its item: deleting the item deletes the key.
            let key = try KeyHandle.generateKept(
                kind, accessControl: try accessControl(of: request.privateAttributes),
                tiedToItem: KeyGenerationParameters.isPermanent(request.privateAttributes, default: request.privateAttributes[QueryKey.tokenID] != nil),
                authentication: KeyReferences.authentication(of: request.privateAttributes), through: SharedKeychain.client)
            return SecKey(KeyHandle(kept: key))
        }
        guard let type = request.generatedType else {
            if request.keyType?.stringValue.flatMap(Int.init) != nil {
                throw KeychainFailure(
                    .unimplemented, reason: "Coffer generates kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyTypeRSA and kSecAttrKeyTypeEd25519 keys only")
            }
            throw KeychainFailure(.param, reason: "incorrect or missing kSecAttrKeyType in key generation request")
        }
        return SecKey(try KeyHandle.generate(type: type, sizeInBits: size(of: type, request)))
    }

    /// The size asked for: Ed25519 has one, and Apple reads no kSecAttrKeySizeInBits for it.
    private static func size(of type: KeyType, _ request: KeyGenerationParameters) -> Int {
        type == .ed25519 ? 256 : request.sizeInBits
    }

    /// The access control of a token key: the one given, else Apple's default for Secure Enclave keys
    /// (`kSecAttrAccessible`, or when-unlocked this device only, with `privateKeyUsage`).
    private static func accessControl(of attributes: QueryDictionary) throws(KeychainFailure) -> AccessControl {
        switch attributes[QueryKey.accessControl] {
        case .accessControl(let control)?: return control
        case nil:
            let protection = attributes[QueryKey.accessible]?.stringValue.flatMap(ProtectionClass.init(rawValue:))
            return TokenKeyCreation.defaultAccessControl(protection: protection)
        default:
            throw KeychainFailure(.param, reason: "Unexpected type of kSecAttrAccessControl attribute")
        }
    }

    /// Apple's `add_key`: `SecItemAdd` with the key as `kSecValueRef` and `attributes`; a token key's own
    /// access control wins over the one in `attributes`.
    static func store(_ key: KeyHandle, _ attributes: QueryDictionary) throws(KeychainFailure) {
        let expanded = KeyItem.addDictionary(storing: key.itemReference, attributes: attributes)
        do {
            _ = try SharedKeychain.client.blocking.add(expanded)
        } catch {
            throw KeychainFailure(error.status, reason: "failed to add key to keychain: \(error.reason ?? error.status.explanation)")
        }
    }
}
