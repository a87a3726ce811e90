import Foundation
import KeychainSelection
import LocalAuthentication
import Testing

/// Evaluations on the embedded keychain that prompt on this process's own terminal or pinentry (here a
/// scripted pinentry named by `COFFER_PINENTRY`; tests have no terminal).
@Suite("LAContext prompts on the embedded keychain", .timeLimit(.minutes(10)))
struct EmbeddedPromptTests {
    /// A pinentry that answers every GETPIN with `passcode` (Assuan: `D <data>` then `OK`).
    private static func scriptedPinentry(answering passcode: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("pinentry").path
        let script = """
            #!/bin/sh
            echo "OK ready"
            while read -r line; do
              case "$line" in
                GETPIN*) echo "D \(passcode)"; echo "OK" ;;
                BYE*) echo "OK"; exit 0 ;;
                *) echo "OK" ;;
              esac
            done
            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    @Test
    func theRightPasscodeAtPinentryProvesPresence() async throws {
        let storage = try TemporaryKeychainFolder(passcode: "1234")
        try FileManager.default.createDirectory(at: storage.url, withIntermediateDirectories: true)
        let pinentry = try Self.scriptedPinentry(answering: "1234", in: storage.url)
        let client = KeychainLocation.client(environment: ["COFFER_HOME": storage.url.path, "COFFER_PINENTRY": pinentry])
        try await SharedKeychainClient.$taskClient.withValue(client) { () async throws in
            let context = LAContext()
            #expect(try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "open the vault"))
            // The proof is reused: a second evaluation succeeds without asking again.
            #expect(try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "again"))
        }
    }

    @Test
    func aWrongPasscodeAtPinentryFailsTheAuthentication() async throws {
        let storage = try TemporaryKeychainFolder(passcode: "1234")
        try FileManager.default.createDirectory(at: storage.url, withIntermediateDirectories: true)
        let pinentry = try Self.scriptedPinentry(answering: "0000", in: storage.url)
        let client = KeychainLocation.client(environment: ["COFFER_HOME": storage.url.path, "COFFER_PINENTRY": pinentry])
        await SharedKeychainClient.$taskClient.withValue(client) {
            let outcome = await evaluate(LAContext(), .deviceOwnerAuthentication, reason: "open the vault")
            #expect(outcome.laError?.code == .authenticationFailed)
        }
    }
}
