import BackupFormat
import Crypto
import Foundation
import KeychainModel
import TPMFixture
import TestProcesses
import Testing
import TrustedPlatformModule

@testable import Daemon
@testable import Keystore

#if canImport(Glibc)
import Glibc
#endif

/// cofferd's TPM service against Debian's swtpm: a keychain whose user may not open the TPM binds to it through the
/// service; each uid's objects are refused to every other uid without touching the TPM's lockout; the client trusts
/// only a server it may, and finds a restarted one.
@Suite struct TPMServiceTests {
    /// swtpm, the service on a socket in a private folder, and its state folder.
    final class Service {
        let software: SoftwareTPM
        let root: URL
        let tpm: PlatformTPM
        private(set) var server: TPMServiceServer
        var path: String { server.path }
        var selection: TPMSelection { .tcti("\(TPMServiceClient.scheme)\(path)") }

        init(folderMode: mode_t = 0o700) throws {
            software = try SoftwareTPM()
            root = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-tpm-service-\(UUID().uuidString.prefix(8))")
            for folder in ["run", "state"] {
                try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
                chmod(root.appendingPathComponent(folder).path, 0o700)
            }
            chmod(root.appendingPathComponent("run").path, folderMode)
            tpm = try PlatformTPM(tcti: software.tcti)
            server = try TPMServiceServer(
                path: root.appendingPathComponent("run/tpm.socket").path, tpm: tpm, stateDirectory: root.appendingPathComponent("state"))
            server.start()
        }

        /// Stops the service and starts another on the same socket, TPM and secret, as a restarted cofferd would.
        func restart() throws {
            server.stop()
            server = try TPMServiceServer(path: path, tpm: tpm, stateDirectory: root.appendingPathComponent("state"))
            server.start()
        }

        /// The answers the service gives a caller of `uid`, as if the kernel had named that uid.
        func answers() throws -> TPMServiceAnswers {
            TPMServiceAnswers(tpm: tpm, secret: try TPMServiceSecret(stateDirectory: root.appendingPathComponent("state")))
        }

        deinit {
            server.stop()
            software.stop()
            try? FileManager.default.removeItem(at: root)
        }
    }

    @Test func aKeychainBindsThroughTheServiceAndUnlocksWithItsPasscode() throws {
        let service = try Service()
        let folder = temporaryFolder()
        let itemKey = SymmetricKey(size: .bits256)
        let wrapped: Data
        do {
            let keystore = try Keystore.open(folder: folder, tpm: service.selection)
            guard case .tpm(let binding) = keystore.deviceKeyProtection else {
                Issue.record("not bound: \(keystore.deviceKeyProtection)")
                return
            }
            #expect(binding.tcti == "cofferd:\(service.path)")
            try keystore.setPasscode(secret("through the service"), kdf: .insecureForTesting)
            wrapped = try keystore.wrapItemKey(itemKey, protection: .whenUnlockedThisDeviceOnly)
            keystore.lock()
            #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 1, retryAfter: .zero)) { try keystore.unlock(passcode: secret("wrong")) }
            try keystore.unlock(passcode: secret("through the service"))
            #expect(try keystore.unwrapItemKey(wrapped, protection: .whenUnlockedThisDeviceOnly) == itemKey)
            // Enclave keys are made inside the TPM through the service too, and verify with swift-crypto.
            #expect(keystore.keepsKeysInTPM)
            let key = try keystore.createTPMKey()
            let digest = SHA256.hash(data: Data("signed through cofferd".utf8))
            let signature = try keystore.tpmSignature(wrapped: key.wrapped, value: Data(digest))
            let publicKey = try P256.Signing.PublicKey(x963Representation: key.publicKey)
            #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: signature), for: digest))
        }
        // The file records the route, and the service's objects answer only through it: the TPM itself, asked
        // without the service's authorisation value, refuses to unseal the device key.
        let sealed = try #require(try TPMDeviceKeyFile.load(from: folder.tpmDeviceKeyURL))
        #expect(sealed.route == .systemService)
        let reopened = try Keystore.open(folder: folder, tpm: service.selection)
        try reopened.unlock(passcode: secret("through the service"))
        #expect(try reopened.unwrapItemKey(wrapped, protection: .whenUnlockedThisDeviceOnly) == itemKey)
        let direct = #expect(throws: TPMError.self) { try service.tpm.unseal(sealed.sealedDeviceKey) }
        #expect(direct?.isWrongAuthorization == true)
        #expect(direct?.reason.contains("made for another caller") == true)
        #expect(try service.software.lockoutCounter() == 0)
    }

    @Test func aKeychainSealedToPCRsThroughTheServiceNeedsItsRecoveryKeyOnceTheyChange() throws {
        let service = try Service()
        let folder = temporaryFolder()
        let recoveryKey: RecoveryKey
        do {
            let keystore = try Keystore.open(folder: folder, tpm: service.selection)
            recoveryKey = try keystore.takeRecoveryKey(passcode: nil)
            #expect(try keystore.bindToTPM(passcode: nil, pcrs: try PCRSelection([16])) == nil)
        }
        #expect(try Keystore.open(folder: folder, tpm: service.selection).lockState == .unlocked)
        try service.software.extendPCR(16)
        let refusal = #expect(throws: KeystoreError.self) { try Keystore.open(folder: folder, tpm: service.selection) }
        guard case .tpmUnavailable(let reason)? = refusal else {
            Issue.record("not refused for its PCRs: \(String(describing: refusal))")
            return
        }
        #expect(reason.contains("sealed to PCRs sha256:16"))
        _ = try Keystore.recover(folder: folder, recoveryKey: recoveryKey, passcode: nil, tpm: service.selection)
        let sealed = try #require(try TPMDeviceKeyFile.load(from: folder.tpmDeviceKeyURL))
        #expect(sealed.route == .systemService && sealed.pcrs.list == [16])
        #expect(try Keystore.open(folder: folder, tpm: service.selection).lockState == .unlocked)

        // On the wire: the PCRs' mask is a second field; another uid is refused the object, a mask past PCR 23 is
        // refused, and none of it counts towards the TPM's lockout.
        let answers = try service.answers()
        let mask = Data([0, 1, 0, 0])
        let made = answers.answer(TPMServiceMessage(.seal, [Data("alice's key".utf8), mask]), for: 1001)
        let blob = try #require(made.kind == .bytes ? made.fields.first : nil)
        #expect(answers.answer(TPMServiceMessage(.unseal, [blob, mask]), for: 1001).fields == [Data("alice's key".utf8)])
        #expect(answers.answer(TPMServiceMessage(.unseal, [blob, mask]), for: 1002).kind == .failure)
        #expect(answers.answer(TPMServiceMessage(.unseal, [blob]), for: 1001).kind == .failure)
        let outside = answers.answer(TPMServiceMessage(.seal, [Data("x".utf8), Data([1, 0, 0, 0])]), for: 1001)
        #expect(outside.failure?.reason.contains("PCR 0 to 23") == true)
        #expect(try service.software.lockoutCounter() == 0)
    }

    @Test func oneUsersObjectsAreRefusedToAnotherWithoutTouchingTheLockout() throws {
        let service = try Service()
        let answers = try service.answers()
        let (alice, bob): (UInt32, UInt32) = (1001, 1002)
        let sealed = answers.answer(TPMServiceMessage(.seal, [Data("alice's device key".utf8)]), for: alice)
        let blob = try #require(sealed.kind == .bytes ? sealed.fields.first : nil)
        #expect(answers.answer(TPMServiceMessage(.unseal, [blob]), for: alice).fields == [Data("alice's device key".utf8)])
        for _ in 0..<5 {
            let stolen = answers.answer(TPMServiceMessage(.unseal, [blob]), for: bob)
            #expect(stolen.kind == .failure)
            #expect(stolen.failure?.isWrongAuthorization == true)
        }
        // The HMAC key alice keeps loaded is not lent to bob, who names its wrapped form.
        let hmacKey = try #require(answers.answer(TPMServiceMessage(.createHMACKey), for: alice).fields.first)
        let input = Data(repeating: 7, count: 32)
        let mac = answers.answer(TPMServiceMessage(.hmac, [hmacKey, input]), for: alice)
        #expect(mac.kind == .bytes && mac.fields.first?.count == 32)
        #expect(answers.answer(TPMServiceMessage(.hmac, [hmacKey, input]), for: bob).kind == .failure)
        // Nor are keys: bob cannot sign or agree with alice's.
        let key = answers.answer(TPMServiceMessage(.createECCKey), for: alice)
        let keyBlob = try #require(key.kind == .eccKey ? key.fields.first : nil)
        let digest = Data(SHA256.hash(data: Data("a message".utf8)))
        let signature = answers.answer(TPMServiceMessage(.sign, [keyBlob, digest]), for: alice)
        let publicKey = try P256.Signing.PublicKey(x963Representation: key.fields[1])
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature.fields[0])
        #expect(publicKey.isValidSignature(ecdsa, for: SHA256.hash(data: Data("a message".utf8))))
        #expect(answers.answer(TPMServiceMessage(.sign, [keyBlob, digest]), for: bob).kind == .failure)
        let peer = P256.KeyAgreement.PrivateKey()
        #expect(answers.answer(TPMServiceMessage(.keyAgreement, [keyBlob, peer.publicKey.x963Representation]), for: bob).kind == .failure)
        let shared = answers.answer(TPMServiceMessage(.keyAgreement, [keyBlob, peer.publicKey.x963Representation]), for: alice)
        let expected = try peer.sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(x963Representation: key.fields[1]))
        #expect(shared.fields.first == expected.withUnsafeBytes { Data($0) })
        // Objects are noDA: bob's refusals did not count towards the TPM's lockout, which would lock everyone out.
        #expect(try service.software.lockoutCounter() == 0)
        // A keychain's own objects (no authorisation value) are not usable through the service either.
        let own = try service.tpm.seal(SecretBytes(copying: Array("direct".utf8)))
        #expect(answers.answer(TPMServiceMessage(.unseal, [own]), for: alice).kind == .failure)
    }

    @Test func malformedRequestsGetAFailureNotACrash() throws {
        let service = try Service()
        let answers = try service.answers()
        let cases: [TPMServiceMessage] = [
            TPMServiceMessage(.unseal, []), TPMServiceMessage(.unseal, [Data([1, 2, 3])]), TPMServiceMessage(.seal, [Data(count: 129)]),
            TPMServiceMessage(.sign, [Data(), Data(count: 31)]), TPMServiceMessage(.keyAgreement, [Data(), Data(count: 65)]),
            TPMServiceMessage(.hmac, [Data([0xFF])]), TPMServiceMessage(.bytes, [Data()]), TPMServiceMessage(.hello, [Data()]),
        ]
        for request in cases { #expect(answers.answer(request, for: 1001).kind == .failure, "\(request.kind)") }
        #expect(TPMServiceMessage.decode(Data([0x02, 0x00])) == nil)
        #expect(TPMServiceMessage.decode(Data([0x02, 0x00, 0x05, 0x01])) == nil)
        #expect(TPMServiceMessage.decode(Data([0x42])) == nil)
        // Through the socket: a frame that does not parse closes that connection only.
        let raw = try connectRaw(service.path)
        defer { close(raw) }
        _ = [UInt8]([0, 0, 0, 1, 0x42]).withUnsafeBytes { send(raw, $0.baseAddress, $0.count, 0) }
        var byte: UInt8 = 0
        #expect(recv(raw, &byte, 1, 0) == 0)
        let client = try TPMServiceClient(path: service.path)
        #expect(client.storageRootKey == service.tpm.storageRootKey)
    }

    @Test func theClientRefusesAServiceInAFolderOthersMayChange() throws {
        let service = try Service(folderMode: 0o777)
        let refusal = #expect(throws: TPMError.self) { try TPMServiceClient(path: service.path) }
        #expect(refusal?.reason.contains("may be changed by users other than the server's") == true)
        #expect(throws: TPMError.self) { try TPMServiceClient(path: service.root.appendingPathComponent("run/missing.socket").path) }
    }

    @Test func theClientFindsARestartedServiceAndKeepsItsObjects() throws {
        let service = try Service()
        let client = try TPMServiceClient(path: service.path)
        let blob = try client.seal(SecretBytes(copying: Array("kept across restarts".utf8)))
        try service.restart()
        #expect(try client.unseal(blob) == SecretBytes(copying: Array("kept across restarts".utf8)))
        #expect(client.commandsSent == 3, "hello, seal, unseal (the reconnection's hello is not counted)")
    }

    @Test(arguments: [true, false]) func cofferdServesTheSocketSystemdPasses(withTPM: Bool) throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-tpm-activated-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("state"), withIntermediateDirectories: true)
        chmod(root.path, 0o700)
        let (main, tpmSocket) = (root.appendingPathComponent("socket").path, root.appendingPathComponent("tpm.socket").path)
        // systemd-socket-activate (systemd's tool) listens on both, as cofferd.socket and cofferd-tpm.socket would, and
        // starts cofferd with them as descriptors 3 and 4, named by LISTEN_FDNAMES.
        let activator = try ChildProcess(
            [
                "/usr/bin/systemd-socket-activate", "-l", main, "-l", tpmSocket, "--fdname=socket:tpm",
                "-E", "COFFER_TPM=\(withTPM ? software.tcti : "none")", try SharedExecutables.path("cofferd"),
                "--state-dir", root.appendingPathComponent("state").path, "--socket", main,
            ], output: .null, errors: .null)
        defer { _ = activator.terminate() }
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: tpmSocket) { usleep(10_000) }
        if withTPM {
            // cofferd starts at the first connection and opens the TPM before it serves; on a loaded machine that
            // first connection can be refused while it starts, so the client tries again for a few seconds.
            var connected: TPMServiceClient?
            for _ in 0..<50 where connected == nil {
                connected = try? TPMServiceClient(path: tpmSocket)
                if connected == nil { usleep(100_000) }
            }
            let client = try connected ?? TPMServiceClient(path: tpmSocket)
            let blob = try client.seal(SecretBytes(copying: Array("activated".utf8)))
            #expect(try client.unseal(blob) == SecretBytes(copying: Array("activated".utf8)))
        } else {
            // Without a TPM the passed socket is answered at once with why, so no keychain waits on it.
            let refusal = #expect(throws: TPMError.self) { try TPMServiceClient(path: tpmSocket) }
            #expect(refusal?.reason.contains("cofferd has no TPM to serve") == true, "\(String(describing: refusal))")
        }
    }

    private func connectRaw(_ path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw TPMError(code: 0, reason: "connect failed") }
        return descriptor
    }
}
