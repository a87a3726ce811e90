import Crypto
import CryptoExtras
import Foundation
import KeychainModel

/// The memory-hard KDF that turns a passcode into the passcode key, with its cost parameters.
///
/// scrypt(passcode, salt, N, r, p) makes each guess expensive; its output then salts an HKDF of
/// the device key, so a copied keybag cannot be attacked without the device key file, and with it
/// every guess still costs one scrypt run. The parameters are stored in the keybag, so they can be
/// raised later without breaking existing keybags.
public struct PasscodeKDF: Sendable, Hashable, Codable {
    /// log2 of scrypt's N (CPU/memory cost).
    public var logN: Int
    /// scrypt's block size r.
    public var blockSize: Int
    /// scrypt's parallelism p.
    public var parallelism: Int

    /// Creates a parameter set.
    public init(logN: Int, blockSize: Int = 8, parallelism: Int = 1) {
        self.logN = logN
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// The production floor: N = 2^15, r = 8, p = 1 (32 MiB; about 144 ms per derivation in a release build on the project's 2-core machine).
    public static let production = PasscodeKDF(logN: 15)

    /// Cheap parameters for tests only (N = 2^10): never use them for a real keychain.
    public static let insecureForTesting = PasscodeKDF(logN: 10)

    /// The production floor, raised (doubling N, up to 2^20) until one derivation takes at least `target` here.
    public static func calibrated(target: Duration = .milliseconds(100)) throws -> PasscodeKDF {
        var parameters = production
        let probe = SecretBytes(copying: Array("calibration".utf8))
        let salt = Data(repeating: 0, count: 16)
        while parameters.logN < 20 {
            let clock = ContinuousClock()
            let elapsed = try clock.measure { _ = try parameters.stretch(probe, salt: salt) }
            if elapsed >= target { break }
            parameters.logN += 1
        }
        return parameters
    }

    /// ``calibrated(target:)``, or the production floor if calibration itself fails.
    public static var forNewPasscodes: PasscodeKDF { (try? calibrated()) ?? production }

    /// Runs scrypt over `passcode` with `salt`: a 32-byte key. Also seals items with an application
    /// password (the engine), so that a guess at either costs one scrypt run.
    public func stretch(_ passcode: SecretBytes, salt: Data) throws -> SymmetricKey {
        let n = 1 << logN
        let memory = 128 * blockSize * n * parallelism + 1 << 20
        return try passcode.withUnsafeBytes { bytes in
            try KDF.Scrypt.deriveKey(
                from: bytes, salt: salt, outputByteCount: 32, rounds: n,
                blockSize: blockSize, parallelism: parallelism, maxMemory: memory)
        }
    }
}
