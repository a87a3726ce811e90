import Foundation
import KeychainKeys
import KeyCrypto
import KeychainModel
import Query

/// A key from its external representation (`SecKeyCreateWithData`): X9.63 bytes for
/// `kSecAttrKeyTypeECSECPrimeRandom`, PKCS#1 DER for `kSecAttrKeyTypeRSA`, the 32-byte point or seed for
/// `kSecAttrKeyTypeEd25519`, with `kSecAttrKeyClass` saying whether they are a public or a private key. Bytes
/// that are no such key fail with `errSecParam`.
public func SecKeyCreateWithData(_ keyData: CFData, _ attributes: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? {
    KeyCall.run("SecKeyCreateWithData", error: error) { () throws(KeychainFailure) -> SecKey in
        let parameters = ValueBridge.query(attributes)
        let type = try KeyImport.integer(parameters["type"], name: "key type")
        let keyClass = try KeyImport.integer(parameters["kcls"], name: "key class")
        let bytes = keyData.contiguousData
        let kind = keyClass == 0 ? "public" : "private"
        switch (keyClass, type) {
        case (0, 42), (1, 42):
            return try KeyImport.key(bytes, .rsa, keyClass == 0 ? .publicKey : .privateKey, failure: "RSA \(kind) key creation from data failed")
        case (0, 73), (1, 73), (0, 43), (1, 43), (0, 2_147_483_678), (0, 2_147_483_679), (0, 2_147_483_680):
            return try KeyImport.key(bytes, .ellipticCurve, keyClass == 0 ? .publicKey : .privateKey, failure: "EC \(kind) key creation from data failed")
        case (0, 105), (1, 105):
            return try KeyImport.key(bytes, .ed25519, keyClass == 0 ? .publicKey : .privateKey, failure: "Ed25519 \(kind) key creation from data failed")
        case (0, _), (1, _):
            throw KeychainFailure(.param, reason: "Unsupported \(kind) key type: \(type)")
        case (2, _):
            throw KeychainFailure(.unimplemented, reason: "Unsupported symmetric key type: \(type)")
        default:
            throw KeychainFailure(.param, reason: "Unsupported key class: \(keyClass)")
        }
    }
}

/// The checks of `SecKeyCreateWithData`.
enum KeyImport {
    /// Apple's `SecKeyParamsAsInt64`: a number, or a string that is exactly a decimal number.
    static func integer(_ value: KeychainValue?, name: String) throws(KeychainFailure) -> Int64 {
        switch value {
        case .number(let number): return number
        case .string(let text):
            guard let number = Int64(text), String(number) == text else { throw KeychainFailure(.param, reason: "Unsupported \(name): \(text)") }
            return number
        case nil:
            throw KeychainFailure(.param, reason: "Unsupported \(name): (null)")
        case let other?:
            throw KeychainFailure(.param, reason: "Unsupported \(name): \(RedactedRendering.render(other))")
        }
    }

    static func key(_ bytes: Data, _ type: KeyType, _ keyClass: KeyClass, failure: String) throws(KeychainFailure) -> SecKey {
        do {
            return SecKey(KeyHandle(software: try AsymmetricKey(externalRepresentation: bytes, type: type, keyClass: keyClass)))
        } catch {
            throw KeychainFailure(.param, reason: failure)
        }
    }
}
