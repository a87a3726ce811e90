import Crypto
import Daemon
import Foundation
import KeychainModel
import Keystore
@_spi(Testing) import Security
import TrustedPlatformModule

/// What binding a keychain to a TPM costs (`Benchmarks/tpm.sh`, against Debian's swtpm): an unlock and an open with
/// and without the TPM, the TPM's own commands, and a Secure Enclave key's signature inside the TPM beside one sealed
/// by the keystore and a software key's.
enum TPMBenchmark {
    static func run(in scratch: URL, tcti: String, quick: Bool) throws {
        let rounds = quick ? 3 : 9
        var rows: [Measurement] = []
        var commandsPerUnlock = (first: 0, later: 0)
        for (label, selection) in [("file", TPMSelection.none), ("TPM", TPMSelection.tcti(tcti))] {
            rows += try unlockAndOpen(label: label, selection: selection, in: scratch, rounds: rounds, commands: &commandsPerUnlock)
        }
        // The same TPM through the system cofferd's service, as a user outside group tss reaches it (the service in
        // this process, on a Unix socket: one round trip per TPM operation).
        do {
            let service = try TPMServiceServer(
                path: scratch.appendingPathComponent("tpm.socket").path, tpm: try PlatformTPM(tcti: tcti), stateDirectory: scratch)
            service.start()
            defer { service.stop() }
            var throughService = (first: 0, later: 0)
            rows += try unlockAndOpen(
                label: "TPM through cofferd's TPM service", selection: .tcti("\(TPMServiceClient.scheme)\(service.path)"), in: scratch,
                rounds: rounds, commands: &throughService)
            let client = try TPMServiceClient(path: service.path)
            let hmacKey = try client.createHMACKey()
            let input = SecretBytes(copying: Array(repeating: 7, count: 32))
            _ = try client.hmac(keyBlob: hmacKey, input)
            rows.append(
                try Measurement.run("TPM2_HMAC through cofferd's TPM service", rounds: rounds, operations: 20) {
                    _ = try client.hmac(keyBlob: hmacKey, input)
                })
        }
        do {
            let tpm = try PlatformTPM(tcti: tcti)
            let hmacKey = try tpm.createHMACKey()
            let input = SecretBytes(copying: Array(repeating: 7, count: 32))
            _ = try tpm.hmac(keyBlob: hmacKey, input)
            rows.append(
                try Measurement.run("TPM2_HMAC alone (the passcode's step through the TPM)", rounds: rounds, operations: 20) {
                    _ = try tpm.hmac(keyBlob: hmacKey, input)
                })
        }
        let message = Data("challenge".utf8) as CFData
        for (folder, label, tpm) in [("keys-keystore", "sealed by the keystore (no TPM)", "none"), ("keys-tpm", "inside the TPM", tcti)] {
            try SecurityTesting.withKeychain(at: scratch.appendingPathComponent(folder), environment: ["COFFER_TPM": tpm]) {
                for stored in [false, true] {
                    let key = try ProfilingLoop.makeKey(enclave: true, stored: stored)
                    let kind = stored ? "stored as an item (the item checked at each use)" : "not stored"
                    rows.append(
                        try Measurement.run("`SecKeyCreateSignature`, Secure Enclave P-256 key \(label), \(kind)", rounds: rounds, operations: 20) {
                            guard SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message, nil) != nil else {
                                throw KeychainStatus.internal
                            }
                        })
                }
            }
        }
        let software = try ProfilingLoop.makeKey(enclave: false)
        rows.append(
            try Measurement.run("`SecKeyCreateSignature`, software P-256 key (swift-crypto)", rounds: rounds, operations: 2_000) {
                guard SecKeyCreateSignature(software, .ecdsaSignatureMessageX962SHA256, message, nil) != nil else { throw KeychainStatus.internal }
            })
        print("\n### The TPM (swtpm \(tcti))\n")
        print("| operation | median per op | min | max |")
        print("| --- | --- | --- | --- |")
        for row in rows { print(row.row) }
        print(
            "\nTPM commands per unlock: \(commandsPerUnlock.first) for the first after an open (TPM2_Load of the passcode key, "
                + "TPM2_HMAC), \(commandsPerUnlock.later) for the next (the key stays loaded).")
    }

    /// An unlock and an open of a keychain whose device key `selection` protects, with the TPM commands one unlock sends.
    private static func unlockAndOpen(
        label: String, selection: TPMSelection, in scratch: URL, rounds: Int, commands: inout (first: Int, later: Int)
    ) throws -> [Measurement] {
        let kdf = PasscodeKDF.production
        let passcode = SecretBytes(copying: Array("benchmark-passcode".utf8))
        let folder = KeychainFolder(url: scratch.appendingPathComponent("tpm-\(label.split(separator: " ").joined(separator: "-"))"))
        var rows: [Measurement] = []
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
            if let opened { commands.first = (keystore.tpmCommandsSent ?? 0) - opened }
            rows.append(
                try Measurement.run(
                    "unlock, device key in a \(label) (scrypt N=2^\(kdf.logN), HKDF, unwraps, 2 keybag writes)", rounds: rounds, operations: 1
                ) {
                    try keystore.unlock(passcode: passcode)
                })
            if let before = keystore.tpmCommandsSent {
                try keystore.unlock(passcode: passcode)
                commands.later = (keystore.tpmCommandsSent ?? 0) - before
            }
        }
        rows.append(
            try Measurement.run("open a keystore, device key in a \(label)", rounds: rounds, operations: 10) {
                _ = try Keystore.open(folder: folder, tpm: selection)
            })
        return rows
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
