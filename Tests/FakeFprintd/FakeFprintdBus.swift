import Foundation
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// A private `dbus-daemon` in a temporary folder, with the fake fprintd (Fixtures/fake_fprintd.py) on
/// it unless asked not to. Both run in process groups of their own and are killed when the object goes
/// away (or at ``stop()``).
public final class FakeFprintdBus {
    /// Where the fixture is, next to this file.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fake_fprintd.py").path
    /// The interpreter with python3-dbus and python3-gi (Debian's, whatever `python3` is first on PATH).
    public static let python = "/usr/bin/python3"

    /// What the bus and the fake need: installed on first use when missing.
    public static let packages = ["dbus-daemon", "python3-dbus", "python3-gi"]

    /// The bus's address, for `FprintdSensor(busAddress:)`.
    public let address: String
    private let folder: String
    private let bus: ChildProcess
    private var fprintd: ChildProcess?

    /// Starts the bus and, when `withFprintd`, the fake fprintd in `state`.
    public init(withFprintd: Bool = true, state: FakeFprintdState = FakeFprintdState()) throws {
        try DebianPackages.ensureInstalled(Self.packages)
        var template = Array("/tmp/coffer-biometry-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        folder = String(cString: made)
        let configuration = "\(folder)/bus.conf"
        try Self.configuration(socket: "\(folder)/bus").write(toFile: configuration, atomically: true, encoding: .utf8)
        bus = try ChildProcess(
            ["/usr/bin/dbus-daemon", "--nofork", "--print-address", "--config-file=\(configuration)"],
            output: .pipe, errors: .null)
        guard let printed = bus.nextOutputLine(timeout: .seconds(20)), printed.hasPrefix("unix:") else {
            bus.kill()
            throw FakeFprintdFailure(message: "dbus-daemon printed no address")
        }
        address = printed
        try setState(state)
        if withFprintd { try startFprintd() }
    }

    deinit {
        stop()
    }

    /// Rewrites the fake's state; its next call reads it.
    public func setState(_ state: FakeFprintdState) throws {
        try JSONEncoder().encode(state).write(to: URL(fileURLWithPath: "\(folder)/state.json"), options: .atomic)
    }

    /// The reader calls the fake has received, in order ("Claim alice", "VerifyStart any", …).
    public func calls() -> [String] {
        let log = (try? String(contentsOfFile: "\(folder)/calls.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map(String.init)
    }

    /// Kills the fake and the bus, and removes the folder.
    public func stop() {
        fprintd?.kill()
        bus.kill()
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func startFprintd() throws {
        let child = try ChildProcess(
            [Self.python, Self.script, address, "\(folder)/state.json", "\(folder)/calls.log"],
            output: .pipe, errors: .sameAsOutput)
        fprintd = child
        var printed: [String] = []
        while let line = child.nextOutputLine(timeout: .seconds(20)) {
            if line == "ready" { return }
            printed.append(line)
        }
        child.kill()
        throw FakeFprintdFailure(
            message: "the fake fprintd did not start (it needs python3-dbus and python3-gi): " + printed.joined(separator: "\n"))
    }

    /// A bus like a session bus, on `socket`, that lets anyone own any name and send anything.
    private static func configuration(socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }
}
