import Foundation
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// A private software TPM for one test: Debian's `swtpm` (installed with `swtpm-tools` and `tpm2-tools` when
/// missing) on two loopback ports of its own, with its state in a new folder, stopped and deleted by ``stop()``.
///
/// swtpm serves one connection at a time, as a TPM without a resource manager does: a `tpm2-tools` command runs while
/// no Coffer process holds the TPM (between commands of the embedded keychain, or with cofferd stopped).
public final class SoftwareTPM: @unchecked Sendable {
    /// Why the TPM could not be started or a tool failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The command port (the control port is the next one, as tpm2-tss's swtpm TCTI expects).
    public let port: Int
    /// tpm2-tss's TCTI configuration for it: what `COFFER_TPM` is set to.
    public var tcti: String { "swtpm:host=127.0.0.1,port=\(port)" }
    /// The TPM's state folder.
    public let folder: String
    private let lock = NSLock()
    private var process: ChildProcess?

    /// Starts a TPM with a new state (a new endorsement and owner seed: a different SRK from any other).
    public init() throws {
        try DebianPackages.ensureInstalled(["swtpm", "swtpm-tools", "tpm2-tools"])
        folder = "/tmp/coffer-tpm-\(UUID().uuidString.prefix(8).lowercased())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = try Self.freePortPair()
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
        let child = try ChildProcess(
            [
                "/usr/bin/swtpm", "socket", "--tpm2", "--tpmstate", "dir=\(folder)",
                "--server", "type=tcp,port=\(port),bindaddr=127.0.0.1", "--ctrl", "type=tcp,port=\(port + 1),bindaddr=127.0.0.1",
                "--flags", "not-need-init,startup-clear",
            ], output: .null, errors: .null)
        lock.withLock { process = child }
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if Self.listens(port) { return }
            guard child.isRunning else { throw Failure(description: "swtpm exited at start") }
            usleep(10_000)
        }
        throw Failure(description: "swtpm did not listen on 127.0.0.1:\(port)")
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

    private static func freePortPair() throws -> Int {
        for _ in 0..<50 {
            let port = try LoopbackPort.free()
            if port < 65_535, !listens(port + 1), canBind(port + 1) { return port }
        }
        throw Failure(description: "no two adjacent free ports on 127.0.0.1")
    }

    private static func canBind(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func listens(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = loopback(port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func loopback(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}
