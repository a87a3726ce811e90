import Foundation
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// Where the provider's keychain is: embedded in a private `COFFER_HOME`, or behind a per-user `cofferd`
/// reached by `COFFER_SOCKET`.
enum ProviderTransport: String, CaseIterable, CustomTestStringConvertible {
    case embedded, daemon
    var testDescription: String { rawValue }
}

/// A private session bus (`dbus-daemon` with a configuration of its own: no service files but, when asked,
/// one that activates the built `coffer-secret-service`, so nothing else is ever activated), a fresh
/// keychain, and the provider serving it; `secret-tool` talks to it. Everything started is stopped when the
/// object goes away, the activated provider included.
final class SecretServiceSession {
    /// What a finished `secret-tool` printed, and its status.
    struct Outcome {
        let status: Int32
        let output: String
        let errors: String
    }

    /// The Debian packages the tests need: the bus, libsecret's command-line tool, GLib's `gdbus`, and
    /// Python's GLib bindings (several calls on one connection, which `gdbus call` cannot make).
    static let packages = ["dbus-daemon", "libsecret-tools", "libglib2.0-bin", "python3-gi"]

    private let scratch: String
    private let bus: ChildProcess
    private let address: String
    private var daemon: ChildProcess?
    private var socket: String?
    private var provider: ChildProcess?
    /// What every provider started so far wrote on standard error.
    private(set) var providerErrors = ""
    /// What the last provider that failed to start wrote on standard error.
    private(set) var lastStartErrors = ""

    /// Whether the bus starts the provider by activation (see ``init(_:activatable:)``).
    private let activatable: Bool

    /// A bus and a keychain on `transport`. When `activatable`, the bus's configuration lists a service
    /// directory whose activation file starts the built provider on the first call to its name. With
    /// `busDaemonCopy`, the bus runs from a copy of dbus-daemon in the session's scratch folder, as a program of
    /// the user would run a bus of its own.
    init(_ transport: ProviderTransport, activatable: Bool = false, busDaemonCopy: Bool = false) throws {
        try DebianPackages.ensureInstalled(Self.packages)
        var template = Array("/tmp/coffer-secret-service-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        scratch = String(cString: made)
        self.activatable = activatable
        let configuration = "\(scratch)/bus.conf"
        let services = activatable ? "\(scratch)/services" : nil
        if let services {
            // cofferd starts after the bus: activation serves the embedded transport only (COFFER_HOME on the Exec line).
            precondition(transport == .embedded, "activation is set up for the embedded transport")
            try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: false)
            try Self.activationFile(keychain: "\(scratch)/keychain", bus: "unix:path=\(scratch)/bus")
                .write(toFile: "\(services)/org.freedesktop.secrets.service", atomically: true, encoding: .utf8)
        }
        try Self.configuration(socket: "\(scratch)/bus", services: services).write(toFile: configuration, atomically: true, encoding: .utf8)
        var busDaemon = "/usr/bin/dbus-daemon"
        if busDaemonCopy {
            busDaemon = "\(scratch)/dbus-daemon"
            try FileManager.default.copyItem(atPath: "/usr/bin/dbus-daemon", toPath: busDaemon)
            // Run as root, the test makes the copy another user's, as a program of that user would have it.
            if getuid() == 0 { _ = chown(busDaemon, 65_534, 65_534) }
        }
        bus = try ChildProcess(
            [busDaemon, "--nofork", "--print-address", "--config-file=\(configuration)"], output: .pipe, errors: .null)
        guard let printed = bus.nextOutputLine(timeout: .seconds(20)), printed.hasPrefix("unix:") else {
            bus.kill()
            throw Failure(description: "dbus-daemon printed no address")
        }
        address = printed
        guard transport == .daemon else { return }
        let socket = "\(scratch)/cofferd.socket"
        daemon = try ChildProcess(
            [Self.executable("cofferd"), "--user", "--socket", socket], environment: ["COFFER_HOME": keychain, "PATH": "/usr/bin:/bin"],
            output: .null, errors: .null)
        for _ in 0..<1500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        self.socket = socket
    }

    deinit {
        stopProvider()
        if activatable { stopActivatedProvider() }
        _ = daemon?.terminate()
        bus.kill()
        try? FileManager.default.removeItem(atPath: scratch)
    }

    /// Starts `coffer-secret-service` with `arguments`, `settings` added to its environment, and waits until it has
    /// taken its name.
    func startProvider(_ settings: [String: String] = [:], arguments: [String] = []) throws {
        let child = try ChildProcess(
            [Self.executable("coffer-secret-service")] + arguments, environment: environment.merging(settings) { $1 },
            output: .pipe, errors: .pipe)
        guard child.nextOutputLine(timeout: .seconds(30)) == "coffer-secret-service: serving org.freedesktop.secrets" else {
            let outcome = try child.finish(timeout: .seconds(10))
            lastStartErrors = outcome.errorText
            throw Failure(description: "coffer-secret-service did not start: \(outcome.errorText)")
        }
        provider = child
    }

    /// Stops the provider (SIGTERM) and keeps what it wrote on standard error.
    func stopProvider() {
        guard let provider else { return }
        self.provider = nil
        provider.terminate()
        if let outcome = try? provider.finish(timeout: .seconds(10)) { providerErrors += outcome.errorText }
    }

    /// The pid of the process that owns `org.freedesktop.secrets` on the bus, if any.
    func providerPID() throws -> pid_t? {
        let asked = try ChildProcess.run(
            [
                "/usr/bin/gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", "org.freedesktop.secrets",
            ],
            environment: environment, timeout: .seconds(30))
        guard asked.status == 0, let number = asked.outputText.firstMatch(of: /uint32 (\d+)/)?.1 else { return nil }
        return pid_t(number)
    }

    /// Stops a provider the bus activated (SIGTERM), and waits until it is gone.
    private func stopActivatedProvider() {
        guard let pid = try? providerPID(), pid > 0 else { return }
        Glibc.kill(pid, SIGTERM)
        for _ in 0..<1000 where Glibc.kill(pid, 0) == 0 { usleep(10_000) }
    }

    /// Runs `secret-tool arguments…` with `input` on standard input.
    func secretTool(_ arguments: [String], input: String = "") throws -> Outcome {
        let finished = try ChildProcess.run(["/usr/bin/secret-tool"] + arguments, input: input, environment: environment, timeout: .seconds(60))
        return Outcome(status: finished.status, output: finished.outputText, errors: finished.errorText)
    }

    /// Calls `method` (`interface.member`) on the provider's object `path` with `gdbus call`, which prints
    /// the answer as a GVariant.
    func call(_ path: String, _ method: String, _ arguments: [String] = []) throws -> Outcome {
        let finished = try ChildProcess.run(
            ["/usr/bin/gdbus", "call", "--session", "--dest", "org.freedesktop.secrets", "--object-path", path, "--method", method]
                + arguments, environment: environment, timeout: .seconds(60))
        return Outcome(status: finished.status, output: finished.outputText, errors: finished.errorText)
    }

    /// Runs the Python `script` (with Gio and GLib imported and `bus`, a connection to the session bus) as one
    /// bus client: its calls share a connection, so its sessions stay open until it exits.
    /// What every Python client script starts with: `bus`, its session bus connection, and `call(method,
    /// signature, arguments, path, interface)`, a method call on the provider (the Service unless told otherwise).
    private static let pythonPrelude = """
        from gi.repository import Gio, GLib
        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        def call(method, signature, arguments, path='/org/freedesktop/secrets', interface='Service'):
            return bus.call_sync('org.freedesktop.secrets', path, 'org.freedesktop.Secret.' + interface,
                                 method, GLib.Variant(signature, arguments), None, 0, -1, None)

        """

    func python(_ script: String) throws -> Outcome {
        let program = Self.pythonPrelude + script
        let finished = try ChildProcess.run(["/usr/bin/python3", "-c", program], environment: environment, timeout: .seconds(60))
        return Outcome(status: finished.status, output: finished.outputText, errors: finished.errorText)
    }

    /// The built `coffer` CLI on the same keychain, with `input` on standard input.
    func coffer(_ arguments: [String], input: String = "") throws -> Outcome {
        let finished = try ChildProcess.run([Self.executable("coffer")] + arguments, input: input, environment: environment, timeout: .seconds(60))
        return Outcome(status: finished.status, output: finished.outputText, errors: finished.errorText)
    }

    /// Runs `arguments` (a path first) on the session's bus and keychain, with `settings` added to its
    /// environment and `input` on standard input.
    func run(_ arguments: [String], input: String = "", settings: [String: String] = [:], timeout: Duration = .seconds(60)) throws -> Outcome {
        let finished = try ChildProcess.run(arguments, input: input, environment: environment.merging(settings) { $1 }, timeout: timeout)
        return Outcome(status: finished.status, output: finished.outputText, errors: finished.errorText)
    }

    /// Starts `arguments` (a path first) on the session's bus and keychain, with `settings` added to its
    /// environment, a pipe on standard input and its output discarded; the caller stops it.
    func start(_ arguments: [String], settings: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(arguments, environment: environment.merging(settings) { $1 }, input: .pipe, output: .null, errors: .null)
    }

    /// A file in the session's private folder.
    func path(_ name: String) -> String { "\(scratch)/\(name)" }

    /// `secret-tool store --label=label attributes…` with `secret`, which must succeed.
    func store(label: String, _ attributes: [String], secret: String) throws {
        let stored = try secretTool(["store", "--label=\(label)"] + attributes, input: secret)
        #expect(stored.status == 0, "secret-tool store: \(stored.errors)")
    }

    private var keychain: String { "\(scratch)/keychain" }

    private var environment: [String: String] {
        var environment = ["PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": address]
        if let socket { environment["COFFER_SOCKET"] = socket } else { environment["COFFER_HOME"] = keychain }
        return environment
    }

    /// The path of a built executable, beside the test bundle.
    static func executable(_ name: String) -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// An activation file that starts the built provider on the bus at `bus`, over the embedded keychain at
    /// `keychain` (the Exec line sets both, whatever the bus's own environment holds).
    private static func activationFile(keychain: String, bus: String) -> String {
        """
        [D-BUS Service]
        Name=org.freedesktop.secrets
        Exec=/usr/bin/env COFFER_HOME=\(keychain) DBUS_SESSION_BUS_ADDRESS=\(bus) PATH=/usr/bin:/bin \(executable("coffer-secret-service"))
        """
    }

    /// A bus like a session bus, on `socket`, with no service files but those in `services`.
    private static func configuration(socket: String, services: String? = nil) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
        \(services.map { "  <servicedir>\($0)</servicedir>" } ?? "")
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }

    /// A fixture that could not be set up.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}
