import Crypto
import CryptoExtras
import Foundation
import KeychainModel

/// scrypt's cost parameters for a backup password, stored in the backup's header.
///
/// A backup file may be copied and attacked offline without any device key, so its default is well above
/// the keychain's passcode floor: N = 2^17, r = 8, p = 1 (128 MiB per guess).
public struct BackupKDF: Sendable, Hashable {
    /// log2 of scrypt's N.
    public var logN: UInt8
    /// scrypt's block size r.
    public var blockSize: UInt8
    /// scrypt's parallelism p.
    public var parallelism: UInt8

    /// A parameter set.
    public init(logN: UInt8, blockSize: UInt8 = 8, parallelism: UInt8 = 1) {
        self.logN = logN
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// The default for new backups: N = 2^17, r = 8, p = 1.
    public static let standard = BackupKDF(logN: 17)

    /// Cheap parameters for tests only (N = 2^10): never use them for a real backup.
    public static let insecureForTesting = BackupKDF(logN: 10)

    /// The most memory a backup may ask scrypt for (1 GiB), so that a hostile header cannot exhaust the machine.
    static let maximumMemory = 1 << 30

    /// The memory scrypt needs with these parameters.
    var memory: Int { 128 * Int(blockSize) * (1 << Int(logN)) * Int(parallelism) }

    /// Checks the parameters a header asks for: N from 2^10 to 2^22, r and p at least 1, at most 1 GiB.
    func validate() throws(BackupFormatError) {
        guard (10...22).contains(logN), blockSize >= 1, parallelism >= 1, memory <= Self.maximumMemory else {
            throw .unacceptableParameters("scrypt parameters N = 2^\(logN), r = \(blockSize), p = \(parallelism) are out of bounds")
        }
    }

    /// scrypt(password, salt): 32 bytes.
    func stretch(_ password: SecretBytes, salt: Data) throws(BackupFormatError) -> SymmetricKey {
        try validate()
        do {
            return try password.withUnsafeBytes { bytes in
                try KDF.Scrypt.deriveKey(
                    from: bytes, salt: salt, outputByteCount: 32, rounds: 1 << Int(logN),
                    blockSize: Int(blockSize), parallelism: Int(parallelism), maxMemory: memory + (1 << 20))
            }
        } catch {
            throw .unacceptableParameters("scrypt refused its parameters")
        }
    }
}
