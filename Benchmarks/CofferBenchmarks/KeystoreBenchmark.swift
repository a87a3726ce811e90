import Crypto
import Foundation
import KeychainModel
import Keystore

/// The passcode KDF and class-key operations.
enum KeystoreBenchmark {
    static func run(in folder: URL, quick: Bool) throws -> [Measurement] {
        let keystoreFolder = KeychainFolder(url: folder.appendingPathComponent("keystore"))
        let keystore = try Keystore.open(folder: keystoreFolder)
        let passcode = SecretBytes(copying: Array("benchmark-passcode".utf8))
        let kdf = try PasscodeKDF.calibrated()
        try keystore.setPasscode(passcode, kdf: kdf)
        let itemKey = SymmetricKey(size: .bits256)
        let wrapped = try keystore.wrapItemKey(itemKey, protection: .whenUnlocked)
        let rounds = quick ? 3 : 15
        return [
            try Measurement.run(
                "unlock: scrypt N=2^\(kdf.logN) r=\(kdf.blockSize) p=\(kdf.parallelism) (as calibrated by `coffer passcode set`) + HKDF + unwraps + 2 keybag writes",
                rounds: quick ? 3 : 9, operations: 1
            ) {
                try keystore.unlock(passcode: passcode)
            },
            try Measurement.run("wrap an item key (AES key wrap under the class key)", rounds: rounds, operations: 20_000) {
                _ = try keystore.wrapItemKey(itemKey, protection: .whenUnlocked)
            },
            try Measurement.run("unwrap an item key", rounds: rounds, operations: 20_000) {
                _ = try keystore.unwrapItemKey(wrapped, protection: .whenUnlocked)
            },
            try Measurement.run("metadata key lookup", rounds: rounds, operations: 100_000) {
                _ = try keystore.metadataKey(for: .whenUnlocked)
            },
            try Measurement.run("open keystore (read + verify device key and keybag)", rounds: rounds, operations: 200) {
                _ = try Keystore.open(folder: keystoreFolder)
            },
        ]
    }
}
