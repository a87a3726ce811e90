import Foundation
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// A private software TPM for one test: Debian's `swtpm` (installed with `swtpm-tools` and `tpm2-tools` when
/// missing) on two Unix sockets in a new folder of its own (the command socket and its `.ctrl`, as tpm2-tss's swtpm
/// TCTI expects), with its state there too, stopped and deleted by ``stop()``. Sockets in its own folder, unlike
/// loopback ports, cannot be taken by another test's TPM that starts at the same moment.
///
/// swtpm has no resource manager: it holds three objects at once for everyone who uses it, and what a process that
/// was killed had loaded stays loaded.
public final class SoftwareTPM: @unchecked Sendable {
    /// Why the TPM could not be started or a tool failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The TPM's folder: its state and its sockets.
    public let folder: String
    /// The command socket (the control socket is this path with `.ctrl`).
    public var socketPath: String { folder + "/tpm.sock" }
    /// tpm2-tss's TCTI configuration for it: what `COFFER_TPM` is set to.
    public var tcti: String { "swtpm:path=\(socketPath)" }
    private let lock = NSLock()
    private var process: ChildProcess?

    /// Starts a TPM with a new state (a new endorsement and owner seed: a different SRK from any other).
    public init() throws {
        try DebianPackages.ensureInstalled(["swtpm", "swtpm-tools", "tpm2-tools"])
        folder = "/tmp/coffer-tpm-\(UUID().uuidString.prefix(8).lowercased())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Other users' processes in the multi-user tests (cofferd as its own user) reach the sockets, not the state.
        chmod(folder, 0o711)
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// Starts swtpm on the existing state (after ``halt()``), waiting until it listens.
    public func start() throws {
        for path in [socketPath, socketPath + ".ctrl"] { unlink(path) }
        let child = try ChildProcess(
            [
                "/usr/bin/swtpm", "socket", "--tpm2", "--tpmstate", "dir=\(folder)",
                "--server", "type=unixio,path=\(socketPath)", "--ctrl", "type=unixio,path=\(socketPath).ctrl",
                "--flags", "not-need-init,startup-clear",
            ], output: .null, errors: .null)
        lock.withLock { process = child }
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if Self.listens(socketPath), Self.listens(socketPath + ".ctrl") {
                for path in [socketPath, socketPath + ".ctrl"] { chmod(path, 0o666) }
                return
            }
            guard child.isRunning else { throw Failure(description: "swtpm exited at start") }
            usleep(10_000)
        }
        throw Failure(description: "swtpm did not listen on \(socketPath)")
    }

    /// Stops swtpm, keeping its state (a power cycle, with ``start()``).
    public func halt() {
        let child = lock.withLock { () -> ChildProcess? in
            defer { process = nil }
            return process
        }
        _ = child?.terminate(grace: .seconds(5))
    }

    /// Stops swtpm and deletes its state.
    public func stop() {
        halt()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs a tpm2-tools command against this TPM.
    @discardableResult
    public func tool(_ arguments: [String]) throws -> String {
        let outcome = try ChildProcess.run(
            ["/usr/bin/\(arguments[0])"] + arguments.dropFirst(), environment: ["TPM2TOOLS_TCTI": tcti, "PATH": "/usr/bin:/bin"],
            timeout: .seconds(60))
        guard outcome.status == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) failed: \(outcome.errorText.suffix(1_000))")
        }
        return outcome.outputText
    }

    /// The dictionary-attack lockout counter (`TPM2_PT_LOCKOUT_COUNTER`), read with tpm2_getcap.
    public func lockoutCounter() throws -> Int {
        try property("TPM2_PT_LOCKOUT_COUNTER", in: tool(["tpm2_getcap", "properties-variable"]))
    }

    /// How many transient objects are loaded (what a process that exited left behind).
    public func loadedTransientObjects() throws -> Int {
        try tool(["tpm2_getcap", "handles-transient"]).split(separator: "\n").filter { $0.hasPrefix("- 0x") }.count
    }

    /// How many sessions are loaded.
    public func loadedSessions() throws -> Int {
        try tool(["tpm2_getcap", "handles-loaded-session"]).split(separator: "\n").filter { $0.hasPrefix("- 0x") }.count
    }

    /// Extends PCR `index` of the SHA-256 bank (`tpm2_pcrextend`), as a changed bootloader or kernel would be measured.
    public func extendPCR(_ index: Int) throws {
        try tool(["tpm2_pcrextend", "\(index):sha256=" + String(repeating: "ab", count: 32)])
    }

    /// Clears the TPM with the platform hierarchy (`tpm2_clear -c p`): a new owner seed, so a new SRK, as after a
    /// clear from the firmware's setup.
    public func clear() throws {
        try tool(["tpm2_clear", "-c", "p"])
    }

    private func property(_ name: String, in text: String) throws -> Int {
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let value = line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("0x"), let number = Int(value.dropFirst(2), radix: 16) { return number }
            if let number = Int(value) { return number }
        }
        throw Failure(description: "tpm2_getcap printed no \(name)")
    }

    private static func listens(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }
}
