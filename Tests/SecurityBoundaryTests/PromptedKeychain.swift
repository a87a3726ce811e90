import Foundation
@_spi(Testing) import Security
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// A keychain with passcode 1234 whose prompts a scripted pinentry answers: the process's own (embedded,
/// `COFFER_PINENTRY`), or the daemon's prompt agent (`coffer prompt-agent --pinentry`).
///
/// The pinentry takes its answers from `answers` in order (one per line; `CANCEL` cancels) and appends
/// every description it is shown to `shown`.
struct PromptedKeychain {
    let scratch: URL
    var answers: URL { scratch.appendingPathComponent("answers") }
    var shown: URL { scratch.appendingPathComponent("shown") }

    /// What the pinentry will answer from now on.
    func willAnswer(_ lines: String...) throws {
        try? FileManager.default.removeItem(at: scratch.appendingPathComponent("count"))
        try (lines.joined(separator: "\n") + "\n").write(to: answers, atomically: true, encoding: .utf8)
    }

    /// The descriptions shown so far.
    var descriptions: [String] {
        ((try? String(contentsOf: shown, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    private static let script = """
        #!/bin/sh
        dir=$(dirname "$0")
        echo "OK ready"
        while IFS= read -r line; do
          case "$line" in
            SETDESC*) printf '%s\\n' "${line#SETDESC }" >> "$dir/shown"; echo OK;;
            GETPIN)
              n=$(cat "$dir/count" 2>/dev/null || echo 0); n=$((n+1)); echo "$n" > "$dir/count"
              answer=$(sed -n "${n}p" "$dir/answers")
              if [ -z "$answer" ] || [ "$answer" = CANCEL ]; then echo "ERR 83886179 Operation cancelled"; else printf 'D %s\\nOK\\n' "$answer"; fi;;
            BYE) echo OK; exit 0;;
            *) echo OK;;
          esac
        done
        """

    /// Runs `body` against a fresh keychain of `transport` with passcode 1234 and the scripted prompt.
    static func run<Result>(_ transport: BoundaryTransport, _ body: (PromptedKeychain) throws -> Result) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-prompted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let pinentry = scratch.appendingPathComponent("pinentry").path
        try script.write(toFile: pinentry, atomically: true, encoding: .utf8)
        _ = chmod(pinentry, 0o755)
        let keychain = PromptedKeychain(scratch: scratch)
        let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let coffer = binaries.appendingPathComponent("coffer").path
        let home = scratch.appendingPathComponent("keychain").path
        switch transport {
        case .embedded:
            let environment = ["COFFER_HOME": home, "PATH": "/usr/bin:/bin"]
            let set = try ChildProcess.run([coffer, "passcode", "set"], input: "1234\n", environment: environment)
            guard set.status == 0 else { throw PromptedKeychainFailure("coffer passcode set: \(set.errorText)") }
            return try SecurityTesting.withKeychain(at: URL(fileURLWithPath: home), environment: ["COFFER_PINENTRY": pinentry]) {
                guard SecKeychainUnlock(nil, 4, "1234", true) == errSecSuccess else { throw PromptedKeychainFailure("unlock") }
                return try body(keychain)
            }
        case .daemon:
            let socket = scratch.appendingPathComponent("socket").path
            let cofferd = binaries.appendingPathComponent("cofferd").path
            let daemon = try ChildProcess(
                [cofferd, "--user", "--socket", socket], environment: ["COFFER_HOME": home, "PATH": "/usr/bin:/bin"],
                output: .null, errors: .null)
            defer { _ = daemon.terminate() }
            for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
            let environment = ["COFFER_SOCKET": socket, "PATH": "/usr/bin:/bin"]
            let set = try ChildProcess.run([coffer, "passcode", "set"], input: "1234\n", environment: environment)
            guard set.status == 0 else { throw PromptedKeychainFailure("coffer passcode set: \(set.errorText)") }
            let agent = try ChildProcess(
                [coffer, "prompt-agent", "--pinentry", pinentry], environment: environment, output: .null, errors: .null)
            defer { _ = agent.terminate() }
            return try SecurityTesting.withKeychain(socket: socket) {
                try keychain.waitForTheAgent()
                return try body(keychain)
            }
        }
    }

    /// Waits until the prompt agent has registered: a protected probe item opens once it answers.
    private func waitForTheAgent() throws {
        let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .devicePasscode, nil)!
        let probe: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "agent-probe",
            kSecValueData as String: Data("probe".utf8), kSecAttrAccessControl as String: access,
        ]
        guard SecItemAdd(probe as CFDictionary, nil) == errSecSuccess else { throw PromptedKeychainFailure("probe add") }
        let search: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "agent-probe"]
        for _ in 0..<500 {
            try willAnswer("1234")
            if SecItemCopyMatching(search as CFDictionary, nil) == errSecSuccess {
                // coffer-lint:disable status-ignored: removing the probe is tidying up; the search answered.
                _ = SecItemDelete(search as CFDictionary)
                try? FileManager.default.removeItem(at: shown)
                return
            }
            usleep(10_000)
        }
        throw PromptedKeychainFailure("the prompt agent never answered")
    }
}

struct PromptedKeychainFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
