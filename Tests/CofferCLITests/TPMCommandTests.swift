import Foundation
import TPMFixture
import Testing
import TestProcesses

/// `coffer` on a keychain bound to a software TPM (swtpm, named by `COFFER_TPM`), through the embedded keychain and
/// through a per-user cofferd that owns the TPM.
@Suite("coffer with a TPM", .timeLimit(.minutes(10)))
struct TPMCommandTests {
    /// A keychain on `transport` whose device key the TPM seals: the daemon, when there is one, holds the TPM.
    final class Fixture {
        let tpm: SoftwareTPM
        private(set) var cli = CLIRunner()
        private var daemon: ChildProcess?
        private let scratch: URL

        init(_ transport: CLITransport, tpm: SoftwareTPM) throws {
            self.tpm = tpm
            scratch = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-tpm-cli-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            if transport == .daemon { try startDaemon() }
        }

        deinit {
            stopDaemon()
            try? FileManager.default.removeItem(at: scratch)
            try? FileManager.default.removeItem(at: cli.home.deletingLastPathComponent())
        }

        func startDaemon() throws {
            let socket = scratch.appendingPathComponent("socket").path
            // A daemon stopped earlier may leave its socket: wait for the new one's.
            try? FileManager.default.removeItem(atPath: socket)
            let cofferd = CLIRunner.executable.deletingLastPathComponent().appendingPathComponent("cofferd").path
            daemon = try ChildProcess(
                [cofferd, "--user", "--socket", socket],
                environment: ["COFFER_HOME": cli.home.path, "COFFER_TPM": tpm.tcti, "PATH": "/usr/bin:/bin"], output: .null, errors: .null)
            for _ in 0..<1500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
            cli.socket = socket
        }

        /// Stops the daemon, which lets go of the TPM (swtpm serves one connection at a time).
        func stopDaemon() {
            _ = daemon?.terminate()
            daemon = nil
        }

        func run(_ arguments: [String], input: String = "") throws -> CLIRunner.Outcome {
            try cli.run(arguments, input: input, environment: ["COFFER_TPM": tpm.tcti])
        }

    }

    @Test(arguments: CLITransport.allCases) func aNewKeychainIsSealedAndItsPasscodeRunsThroughTheTPM(transport: CLITransport) throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        let fixture = try Fixture(transport, tpm: tpm)
        let added = try fixture.run(["add-generic-password", "-s", "svc", "-a", "me", "-w", "hunter2"])
        #expect(added.status == 0, "\(added.standardError)")
        let status = try fixture.run(["keystore", "status"])
        #expect(status.standardOutput.contains("device key: sealed by the TPM"), "\(status.standardOutput)\(status.standardError)")
        #expect(status.standardOutput.contains("TPM: \(tpm.tcti)"))
        #expect(status.standardOutput.contains("recovery key: not shown yet"))
        let json = try fixture.run(["keystore", "status", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect(object?["deviceKey"] as? String == "tpm")
        #expect((object?["storageRootKeyFingerprint"] as? String)?.count == 64)

        let doctor = try fixture.run(["doctor"])
        #expect(doctor.standardOutput.contains("problem device key: sealed by the TPM, and its recovery key was never shown"))
        #expect(try fixture.run(["passcode", "set"], input: "tpm passcode\n").status == 0)
        let shown = try fixture.run(["keystore", "recovery-key"], input: "tpm passcode\n")
        #expect(shown.status == 0, "\(shown.standardError)")
        #expect(shown.standardOutput.split(separator: "-").count == 14)
        let again = try fixture.run(["keystore", "recovery-key"], input: "tpm passcode\n")
        #expect(again.status != 0)
        #expect(again.standardError.contains("shown once already"))
        #expect(try fixture.run(["doctor"]).standardOutput.contains("ok      device key: sealed by the TPM at \(tpm.tcti)"))
        let renewed = try fixture.run(["keystore", "recovery-key", "--new"], input: "tpm passcode\n")
        #expect(renewed.status == 0 && renewed.standardOutput != shown.standardOutput)

        for guess in 1...3 {
            let wrong = try fixture.run(["unlock"], input: "guess \(guess)\n")
            #expect(wrong.status != 0)
            #expect(wrong.standardError.contains("wrong passcode"))
        }
        let unlocked = try fixture.run(["unlock"], input: "tpm passcode\n")
        #expect(unlocked.status == 0, "\(unlocked.standardError)")
        #expect(try fixture.run(["passcode", "change"], input: "tpm passcode\nanother passcode\n").status == 0)
        fixture.stopDaemon()
        #expect(try tpm.lockoutCounter() == 0, "wrong passcodes are the keychain's to count, never the TPM's")
    }

    @Test(arguments: CLITransport.allCases) func aKeychainSealedToPCRsNeedsItsRecoveryKeyOnceTheyChange(transport: CLITransport) throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        let fixture = try Fixture(transport, tpm: tpm)
        #expect(try fixture.run(["add-generic-password", "-s", "svc", "-a", "me", "-w", "hunter2"]).status == 0)
        #expect(try fixture.run(["passcode", "set"], input: "the passcode\n").status == 0)
        #expect(try fixture.run(["passcode", "erase-on-failures", "on"], input: "the passcode\n").status == 0)
        let recoveryKey = try fixture.run(["keystore", "recovery-key"], input: "the passcode\n").standardOutput
        let outside = try fixture.run(["keystore", "bind-tpm", "--pcrs", "7,24"], input: "the passcode\n")
        #expect(outside.status == 64 && outside.standardError.contains("--pcrs"), "\(outside.standardError)")
        let sealed = try fixture.run(["keystore", "bind-tpm", "--pcrs", "16"], input: "the passcode\n")
        #expect(sealed.status == 0, "\(sealed.standardError)")
        #expect(sealed.standardOutput == "device key sealed again by the TPM and PCRs sha256:16\n")
        #expect(!sealed.standardError.contains("Recovery key"), "the recovery key stays the same")
        let status = try fixture.run(["keystore", "status"])
        #expect(status.standardOutput.contains("PCRs: sha256:16 (a boot change needs the recovery key)"), "\(status.standardOutput)")
        let json = try JSONSerialization.jsonObject(with: Data(try fixture.run(["keystore", "status", "--json"]).standardOutput.utf8))
        #expect((json as? [String: Any])?["pcrs"] as? [Int] == [16])
        #expect(try fixture.run(["lock"]).status == 0)
        #expect(try fixture.run(["unlock"], input: "the passcode\n").status == 0)

        // The boot changes: the keychain no longer opens, and says how to open it (cofferd answers every request
        // with why, and runs the recovery).
        fixture.stopDaemon()
        try tpm.extendPCR(16)
        if transport == .daemon { try fixture.startDaemon() }
        let refused = try fixture.run(["find-generic-password", "-s", "svc", "-a", "me", "-w"])
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("errSecNotAvailable (-25291)"), "\(refused.standardError)")
        #expect(refused.standardError.contains("sealed to PCRs sha256:16") && refused.standardError.contains("coffer keystore recover"))
        #expect(!refused.standardError.contains(fixture.cli.home.path), "the folder's path is never told")
        let refusedStatus = try fixture.run(["keystore", "status"])
        #expect(refusedStatus.status != 0 && refusedStatus.standardError.contains("sealed to PCRs sha256:16"), "\(refusedStatus.standardError)")
        let wrong = try fixture.run(["keystore", "recover"], input: recoveryKey + "not the passcode\n")
        #expect(wrong.status != 0 && wrong.standardError.contains("wrong passcode"), "\(wrong.standardError)")
        let recovered = try fixture.run(["keystore", "recover"], input: recoveryKey + "the passcode\n")
        #expect(recovered.status == 0, "\(recovered.standardError)")
        #expect(try fixture.run(["unlock"], input: "the passcode\n").status == 0)
        if transport == .daemon {
            #expect(try fixture.run(["find-generic-password", "-s", "svc", "-a", "me", "-w"]).standardOutput == "hunter2\n")
        }
        #expect(try fixture.run(["keystore", "status"]).standardOutput.contains("PCRs: sha256:16"))
        let again = try fixture.run(["keystore", "recover"], input: recoveryKey + "the passcode\n")
        #expect(again.status != 0 && again.standardError.contains("nothing to recover"), "\(again.standardError)")
        let chipAlone = try fixture.run(["keystore", "bind-tpm", "--pcrs", "none"], input: "the passcode\n")
        #expect(chipAlone.standardOutput == "device key sealed again by the TPM, to the chip alone\n", "\(chipAlone.standardError)")
        #expect(try fixture.run(["keystore", "status"]).standardOutput.contains("PCRs: none"))
        fixture.stopDaemon()
        #expect(try tpm.lockoutCounter() == 0)
    }

    @Test func aCopiedFolderNeedsTheRecoveryKeyOnAnotherTPM() throws {
        let first = try SoftwareTPM()
        defer { first.stop() }
        let second = try SoftwareTPM()
        defer { second.stop() }
        let original = try Fixture(.embedded, tpm: first)
        #expect(try original.run(["add-generic-password", "-s", "svc", "-a", "me", "-w", "hunter2"]).status == 0)
        #expect(try original.run(["passcode", "set"], input: "the passcode\n").status == 0)
        let recoveryKey = try original.run(["keystore", "recovery-key"], input: "the passcode\n").standardOutput

        let moved = try Fixture(.embedded, tpm: second)
        try FileManager.default.createDirectory(at: moved.cli.home.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: original.cli.home, to: moved.cli.home)
        let refused = try moved.run(["status"])
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("bound to another TPM") && refused.standardError.contains("coffer keystore recover"))
        let mistyped = try moved.run(["keystore", "recover"], input: "AAAA-BBBB\nthe passcode\n")
        #expect(mistyped.status != 0 && mistyped.standardError.contains("14 groups of 4"))
        let wrong = try moved.run(["keystore", "recover"], input: recoveryKey + "not the passcode\n")
        #expect(wrong.status != 0 && wrong.standardError.contains("wrong passcode"))
        let recovered = try moved.run(["keystore", "recover"], input: recoveryKey + "the passcode\n")
        #expect(recovered.status == 0, "\(recovered.standardError)")
        let status = try moved.run(["keystore", "status"])
        #expect(status.standardOutput.contains("TPM: \(second.tcti)"))
        #expect(try moved.run(["unlock"], input: "the passcode\n").status == 0)
    }

    @Test func bindAndUnbindAnExistingKeychain() throws {
        let tpm = try SoftwareTPM()
        defer { tpm.stop() }
        let fixture = try Fixture(.embedded, tpm: tpm)
        #expect(try fixture.cli.run(["add-generic-password", "-s", "svc", "-a", "me", "-w", "hunter2"], environment: ["COFFER_TPM": "none"]).status == 0)
        let unbound = try fixture.run(["keystore", "status"])
        #expect(unbound.standardOutput.contains("device key: file"))
        #expect(unbound.standardOutput.contains("coffer keystore bind-tpm seals the device key"))
        let bound = try fixture.run(["keystore", "bind-tpm"])
        #expect(bound.status == 0, "\(bound.standardError)")
        #expect(bound.standardOutput.contains("device key sealed by the TPM"))
        #expect(bound.standardError.contains("Recovery key"))
        #expect(!FileManager.default.fileExists(atPath: fixture.cli.home.appendingPathComponent("device.key").path))
        #expect(try fixture.run(["find-generic-password", "-s", "svc", "-a", "me", "-w"]).standardOutput == "hunter2\n")
        let without = try fixture.cli.run(["find-generic-password", "-s", "svc", "-a", "me", "-w"], environment: ["COFFER_TPM": "none"])
        #expect(without.status != 0 && without.standardError.contains("no TPM is selected"))
        #expect(try fixture.run(["keystore", "unbind-tpm"]).status == 0)
        let back = try fixture.cli.run(["find-generic-password", "-s", "svc", "-a", "me", "-w"], environment: ["COFFER_TPM": "none"])
        #expect(back.standardOutput == "hunter2\n")
    }
}
