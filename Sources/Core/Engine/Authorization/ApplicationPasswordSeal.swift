import Crypto
import Foundation
import KeychainModel
import Keystore
import Query

/// The second seal of an item protected with `kSecAccessControlApplicationPassword`: its secret is encrypted
/// under a random data key, and that key is wrapped under scrypt of the application password. The store
/// then encrypts the sealed bytes under the item key as for every item, so opening the secret needs both
/// the class key and the password: nobody without the password, the daemon included, can read it.
///
/// Layout (version 1): version byte, salt (16 bytes), scrypt logN, r and p (one byte each), the wrapped data
/// key (AES key wrap, 40 bytes), then the secret sealed with AES-GCM (nonce, ciphertext, tag) under the data
/// key, with the layout's first 59 bytes as associated data.
enum ApplicationPasswordSeal {
    private static let version: UInt8 = 1
    private static let headerLength = 1 + 16 + 3 + 40

    /// Seals `secret` under `password` with scrypt parameters `kdf`.
    static func seal(_ secret: Data, password: SecretBytes, kdf: PasscodeKDF) throws(EngineRefusal) -> Data {
        let salt = Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
        let dataKey = SymmetricKey(size: .bits256)
        do {
            let passwordKey = try kdf.stretch(password, salt: salt)
            var header = Data([version])
            header.append(salt)
            header.append(contentsOf: [UInt8(kdf.logN), UInt8(kdf.blockSize), UInt8(kdf.parallelism)])
            header.append(try AES.KeyWrap.wrap(dataKey, using: passwordKey))
            let sealed = try AES.GCM.seal(secret, using: dataKey, authenticating: header)
            guard let combined = sealed.combined else { throw EngineRefusal.sealFailed }
            return header + combined
        } catch {
            throw .sealFailed
        }
    }

    /// The secret inside `sealed`; a wrong `password` is -25293 (`errSecAuthFailed`), damaged bytes -26275.
    static func open(_ sealed: Data, password: SecretBytes) throws(EngineRefusal) -> Data {
        let bytes = [UInt8](sealed)
        guard bytes.count > headerLength + 28, bytes[0] == version else { throw .sealDamaged }
        let salt = Data(bytes[1..<17])
        let logN = Int(bytes[17])
        let kdf = PasscodeKDF(logN: logN, blockSize: Int(bytes[18]), parallelism: Int(bytes[19]))
        guard (10...20).contains(logN), (1...16).contains(kdf.blockSize), (1...4).contains(kdf.parallelism) else {
            throw .sealDamaged
        }
        let header = Data(bytes[0..<headerLength])
        let passwordKey: SymmetricKey
        do {
            passwordKey = try kdf.stretch(password, salt: salt)
        } catch {
            throw .sealFailed
        }
        let dataKey: SymmetricKey
        do {
            dataKey = try AES.KeyWrap.unwrap(Data(bytes[20..<headerLength]), using: passwordKey)
        } catch {
            throw EngineRefusal(.authFailed, .g21, "the application password is wrong")
        }
        do {
            let box = try AES.GCM.SealedBox(combined: Data(bytes[headerLength...]))
            return try AES.GCM.open(box, using: dataKey, authenticating: header)
        } catch {
            throw .sealDamaged
        }
    }
}

extension EngineRefusal {
    /// The application-password seal could not be made or its key stretched.
    fileprivate static let sealFailed = EngineRefusal(.internal, nil, "the application-password seal could not be made")
    /// The application-password seal is damaged.
    fileprivate static let sealDamaged = EngineRefusal(.decode, nil, "the item's application-password seal is damaged")
}
