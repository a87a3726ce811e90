import Crypto
import Foundation
import KeychainModel
import Keystore
@_spi(Testing) import Security
import TrustedPlatformModule

/// What binding a keychain to a TPM costs (`Benchmarks/tpm.sh`, against Debian's swtpm): an unlock and an open with
/// and without the TPM, the TPM's own commands, and a signature inside the TPM beside swift-crypto's.
enum TPMBenchmark {
    static func run(in scratch: URL, tcti: String, quick: Bool) throws {
        let kdf = PasscodeKDF.production
        let passcode = SecretBytes(copying: Array("benchmark-passcode".utf8))
        let rounds = quick ? 3 : 9
        var rows: [Measurement] = []
        var commandsPerUnlock = (first: 0, later: 0)
        for (label, selection) in [("file", TPMSelection.none), ("TPM", TPMSelection.tcti(tcti))] {
            let folder = KeychainFolder(url: scratch.appendingPathComponent("tpm-\(label)"))
            do {
                let keystore = try Keystore.open(folder: folder, tpm: selection)
                try keystore.setPasscode(passcode, kdf: kdf)
            }
            // One keystore at a time: swtpm, like any TPM reached without the kernel's resource manager, holds three
            // objects, and an open keystore keeps its SRK and passcode key loaded.
            do {
                let keystore = try Keystore.open(folder: folder, tpm: selection)
                let opened = keystore.tpmCommandsSent
                try keystore.unlock(passcode: passcode)
                if let opened { commandsPerUnlock.first = (keystore.tpmCommandsSent ?? 0) - opened }
                rows.append(
                    try Measurement.run(
                        "unlock, device key in a \(label) (scrypt N=2^\(kdf.logN), HKDF, unwraps, 2 keybag writes)", rounds: rounds, operations: 1
                    ) {
                        try keystore.unlock(passcode: passcode)
                    })
                if let before = keystore.tpmCommandsSent {
                    try keystore.unlock(passcode: passcode)
                    commandsPerUnlock.later = (keystore.tpmCommandsSent ?? 0) - before
                }
            }
            rows.append(
                try Measurement.run("open a keystore, device key in a \(label)", rounds: rounds, operations: 10) {
                    _ = try Keystore.open(folder: folder, tpm: selection)
                })
        }
        let tpm = try PlatformTPM(tcti: tcti)
        let hmacKey = try tpm.createHMACKey()
        let input = SecretBytes(copying: Array(repeating: 7, count: 32))
        _ = try tpm.hmac(keyBlob: hmacKey, input)
        rows.append(try Measurement.run("TPM2_HMAC alone (the passcode's step through the TPM)", rounds: rounds, operations: 20) { _ = try tpm.hmac(keyBlob: hmacKey, input) })
        let key = try tpm.createECCKey()
        let digest = Data(SHA256.hash(data: Data("challenge".utf8)))
        rows.append(
            try Measurement.run("P-256 signature inside the TPM (load, sign, flush)", rounds: rounds, operations: 20) {
                _ = try tpm.sign(keyBlob: key.blob, digest: digest)
            })
        let software = P256.Signing.PrivateKey()
        rows.append(
            try Measurement.run("P-256 signature in software (swift-crypto)", rounds: rounds, operations: 2_000) {
                _ = try software.signature(for: Data("challenge".utf8))
            })
        print("\n### The TPM (swtpm \(tcti))\n")
        print("| operation | median per op | min | max |")
        print("| --- | --- | --- | --- |")
        for row in rows { print(row.row) }
        print(
            "\nTPM commands per unlock: \(commandsPerUnlock.first) for the first after an open (TPM2_Load of the passcode key, "
                + "TPM2_HMAC), \(commandsPerUnlock.later) for the next (the key stays loaded).")
    }

    /// For profilers: `count` adds then `count` finds as Apple code makes them, on an embedded keychain bound to
    /// whatever `COFFER_TPM` names, each one call of a counted function.
    static func itemsLoop(in scratch: URL, count: Int) throws {
        try SecurityTesting.withKeychain(at: scratch.appendingPathComponent("add-find-loop")) {
            // The first call opens the keychain (and makes it: a device key sealed by the TPM, or a file): outside the
            // counted functions.
            let first: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "bench", kSecAttrAccount as String: "first",
                kSecValueData as String: Data("secret".utf8),
            ]
            guard SecItemAdd(first as CFDictionary, nil) == errSecSuccess else { throw KeychainStatus.internal }
            for account in 0..<count { try ProfilingLoop.countedAdd(account: account) }
            for account in 0..<count { try countedLookup(account: account) }
        }
        print("add and find loop: \(count) adds, \(count) finds")
    }

    /// One find as Apple code makes it.
    @inline(never)
    static func countedLookup(account: Int) throws {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "bench",
            kSecAttrAccount as String: "account-\(account)", kSecReturnData as String: true,
        ]
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status == errSecSuccess, result is Data else { throw KeychainStatus(code: status) }
    }
}
