import ProgramIdentity
import ArgumentParser
import CCofferSystem
import CofferDiagnostics
import Daemon
import Dispatch
import Foundation
import KeychainModel
import Keystore
import TrustedPlatformModule

#if canImport(Glibc)
import Glibc
#endif

/// `cofferd`: the keychain daemon.
@main
struct CofferDaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cofferd",
        abstract: "The Coffer keychain daemon: one keychain per user, answering each program only with what it may see.",
        discussion: """
            As a system service (the default) it runs as its own user, keeps one keychain per calling \
            uid in --state-dir/UID/ and listens on --socket, which every user may connect to. Programs \
            of a user cannot read the keychain files, so the daemon's per-program access groups are a \
            real boundary.

            With --user it serves only the user who runs it, from that user's keychain folder \
            ($COFFER_HOME, else $XDG_DATA_HOME/coffer, else ~/.local/share/coffer), on \
            $XDG_RUNTIME_DIR/coffer/socket (socket-HASH for a folder other than the default), where \
            coffer and every program using the keychain find it without COFFER_SOCKET. It shares one \
            lock state across the user's programs but CANNOT stop them from reading the keychain files \
            directly: it does not isolate programs. It stops when its socket is removed (at logout, \
            with the runtime folder). coffer starts one for the session when the keychain has a passcode.
            """,
        version: "cofferd \(CofferVersion.current)")

    @Option(help: "The folder holding one keychain per uid (system mode).")
    var stateDir: String = DaemonConfiguration.systemStateDirectory

    @Option(help: "The socket to listen on.")
    var socket: String?

    @Flag(help: "Per-user mode: serve only this user, from their keychain folder (no isolation between their programs).")
    var user = false

    @Option(
        help: """
            System mode: where to serve the TPM to keychains of users who may not open it (none: do not). Default:             tpm.socket beside --socket, when this daemon has a TPM.
            """)
    var tpmSocket: String?

    @Option(
        help: """
            Where systemd reads credentials for registered units (LoadCredential=ID:PATH; none: do not serve them). \
            Default: credentials.sock beside --socket.
            """)
    var credentialsSocket: String?

    @Option(help: "Lock a keychain after this many seconds without a request (0: never).")
    var autoLock: Int = 0

    @Option(
        help:
            "The trusted front end's group: a caller running setgid to it from a root-owned executable (the installed coffer CLI) is trusted. Default: coffer-cli, when that group exists."
    )
    var trustedGroup: String?

    @Option(help: "Connections one user may hold open at once; more are closed as soon as they are accepted.")
    var maxConnectionsPerUser: Int = ResourceLimits().connectionsPerUser

    @Option(help: "Connections held open at once, all users together (default: from the file descriptor limit, at most 4096).")
    var maxConnections: Int?

    @Option(help: "MiB of frames one user may have in flight (received, being answered, queued); a request that does not fit closes its connection.")
    var maxBytesInFlightPerUser: Int = ResourceLimits().bytesInFlightPerUser >> 20

    @Option(help: "MiB of frames in flight, all users together.")
    var maxBytesInFlight: Int = ResourceLimits().bytesInFlightTotal >> 20

    @Option(help: "MiB one user's keychain folder may occupy; adds and updates beyond it get errSecDiskFull (-34).")
    var storageQuotaPerUser: Int = ResourceLimits().storedBytesPerUser >> 20

    @Option(help: "MiB of free space kept on the keychains' file system; below it, adds and updates get errSecDiskFull (-34).")
    var freeSpaceReserve: Int = ResourceLimits().freeSpaceReserve >> 20

    @Option(help: "Seconds a connection may stay silent in the middle of a frame before it is closed.")
    var frameTimeout: Int = Int(ResourceLimits().frameTimeout.components.seconds)

    @Option(help: "Seconds a connection may stay idle between requests before it is closed.")
    var idleTimeout: Int = Int(ResourceLimits().idleTimeout.components.seconds)

    func validate() throws {
        guard autoLock >= 0 else { throw ValidationError("--auto-lock takes a number of seconds, 0 or more.") }
        let positive =
            [
                ("--max-connections-per-user", maxConnectionsPerUser), ("--max-bytes-in-flight-per-user", maxBytesInFlightPerUser),
                ("--max-bytes-in-flight", maxBytesInFlight), ("--frame-timeout", frameTimeout), ("--idle-timeout", idleTimeout),
            ] + (maxConnections.map { [("--max-connections", $0)] } ?? [])
        for (name, value) in positive where value < 1 { throw ValidationError("\(name) takes a number, 1 or more.") }
        guard storageQuotaPerUser >= 0, freeSpaceReserve >= 0 else {
            throw ValidationError("--storage-quota-per-user and --free-space-reserve take a number of MiB, 0 or more.")
        }
    }

    /// The limits the options set.
    var limits: ResourceLimits {
        ResourceLimits(
            connectionsPerUser: maxConnectionsPerUser, maximumConnections: maxConnections,
            bytesInFlightPerUser: maxBytesInFlightPerUser << 20, bytesInFlightTotal: maxBytesInFlight << 20,
            storedBytesPerUser: storageQuotaPerUser << 20, freeSpaceReserve: freeSpaceReserve << 20,
            frameTimeout: .seconds(frameTimeout), idleTimeout: .seconds(idleTimeout))
    }

    func run() throws {
        _ = coffer_disable_core_dumps()
        // Large frame buffers are mapped on their own, so their memory returns to the system when freed.
        _ = coffer_return_large_blocks_to_system(128 << 10)
        let environment = ProcessInfo.processInfo.environment
        let uid = getuid()
        let folder = KeychainFolder.fromEnvironment(environment)
        let mode: DaemonConfiguration.Mode =
            user
            ? .user(folder: folder, uid: uid)
            : .system(stateDirectory: URL(fileURLWithPath: stateDir, isDirectory: true))
        let socketPath =
            socket
            ?? (user
                ? DaemonConfiguration.userSocketPath(for: folder, environment: environment, uid: uid)
                : DaemonConfiguration.systemSocketPath)
        try prepareFolders(mode: mode, socketPath: socketPath)
        var configuration = DaemonConfiguration(
            mode: mode, socketPath: socketPath, autoLockAfter: autoLock > 0 ? .seconds(autoLock) : nil, limits: limits)
        configuration.trustedFrontEndGroup = try trustedFrontEndGroup()
        let server = DaemonServer(configuration: configuration)
        let tpmService = try startTPMService(configuration, inherited: Self.systemdSocket(environment, named: "tpm"))
        let credentials = startCredentialServer(configuration, keychains: server.keychains)

        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        let signals = [SIGTERM, SIGINT].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                tpmService?.stop()
                credentials?.stop()
                server.shutdown()
            }
            source.resume()
            return source
        }
        defer { signals.forEach { $0.cancel() } }
        try server.run(inheritedSocket: Self.systemdSocket(environment, named: "socket"))
    }

    /// The system daemon's TPM service, when it has a TPM it opens itself and --tpm-socket is not `none`, or when
    /// systemd passed the service's socket (`cofferd-tpm.socket`, answered with why there is no TPM when there is
    /// none); nil otherwise (a TPM that cannot be opened is logged, and keychains run as they would without it).
    private func startTPMService(_ configuration: DaemonConfiguration, inherited: Int32?) throws -> TPMServiceServer? {
        guard case .system(let state) = configuration.mode, tpmSocket != "none" else { return nil }
        let path = tpmSocket ?? URL(fileURLWithPath: configuration.socketPath).deletingLastPathComponent().appendingPathComponent("tpm.socket").path
        let tpm: Result<PlatformTPM, TPMError>
        switch configuration.tpm.configuration {
        case let tcti? where !tcti.hasPrefix(TPMServiceClient.scheme):
            tpm = Result { () throws(TPMError) in try PlatformTPM(tcti: tcti) }
        default:
            tpm = .failure(TPMError(code: 0xC0FF_0001, reason: "no TPM is selected (COFFER_TPM, or /dev/tpmrm0 is not usable)"))
        }
        let service: TPMServiceServer
        switch (tpm, inherited) {
        case (_, let listener?):
            service = try TPMServiceServer(inheritedListener: listener, path: path, tpm: tpm, stateDirectory: state)
        case (.success(let tpm), nil):
            service = try TPMServiceServer(path: path, tpm: tpm, stateDirectory: state)
        case (.failure(let error), nil):
            DiagnosticsLevel.logger(label: "coffer.tpm-service").notice("no TPM service: \(error.reason)")
            return nil
        }
        service.start()
        return service
    }

    /// The credentials socket for systemd units, unless --credentials-socket is `none`; a socket that cannot be made
    /// is logged, and the daemon runs without it.
    private func startCredentialServer(_ configuration: DaemonConfiguration, keychains: UserKeychains) -> CredentialServer? {
        guard credentialsSocket != "none" else { return nil }
        let main = URL(fileURLWithPath: configuration.socketPath)
        let name = main.lastPathComponent == "socket" ? "credentials.sock" : main.lastPathComponent + "-credentials.sock"
        let path = credentialsSocket ?? main.deletingLastPathComponent().appendingPathComponent(name).path
        let managerUID: UInt32 =
            switch configuration.mode {
            case .system: 0
            case .user(_, let uid): uid
            }
        do {
            let server = try CredentialServer(path: path, keychains: keychains, managerUID: managerUID)
            server.start()
            return server
        } catch {
            DiagnosticsLevel.logger(label: "coffer.credentials").warning("no credentials socket: \(error)")
            return nil
        }
    }

    /// The gid of --trusted-group (which must exist), else of `coffer-cli` when it exists.
    private func trustedFrontEndGroup() throws -> UInt32? {
        guard let trustedGroup else { return GroupLookup.gid(named: GroupLookup.defaultTrustedFrontEndGroup) }
        guard let gid = GroupLookup.gid(named: trustedGroup) else {
            throw ValidationError("--trusted-group: there is no group named '\(trustedGroup)'.")
        }
        return gid
    }

    /// The listening socket systemd passed (socket activation) under `name` (`FileDescriptorName=`: `socket` for
    /// cofferd.socket, `tpm` for cofferd-tpm.socket), if any. A socket passed without names is the main one.
    static func systemdSocket(_ environment: [String: String], named name: String) -> Int32? {
        guard let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == getpid(),
            let count = environment["LISTEN_FDS"].flatMap(Int.init), count >= 1
        else { return nil }
        guard let names = environment["LISTEN_FDNAMES"]?.split(separator: ":", omittingEmptySubsequences: false).map(String.init) else {
            return name == "socket" ? 3 : nil
        }
        let passed = names.prefix(count)
        // The main socket may carry its unit's name (an older cofferd.socket): it is the one that is not the TPM's.
        guard let index = passed.firstIndex(of: name) ?? (name == "socket" ? passed.firstIndex { $0 != "tpm" } : nil) else { return nil }
        return Int32(3 + index)
    }

    private func prepareFolders(mode: DaemonConfiguration.Mode, socketPath: String) throws {
        let socketFolder = URL(fileURLWithPath: socketPath).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: socketFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: user ? 0o700 : 0o755])
        if case .system(let state) = mode {
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard chmod(state.path, 0o700) == 0 else { throw DaemonError.system("chmod \(state.path)", errno) }
        }
    }

    static func main() {
        DiagnosticsLevel.bootstrapExecutable()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}
