import CSecretServiceBus
import CSystemdBus
import KeychainClient
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One served bus connection and the dedicated thread that runs it (`sd_bus_process`, then `sd_bus_wait`),
/// never Swift's cooperative pool. After ``start()`` only that thread touches the connection and the
/// provider; ``stop()`` asks it to end and waits until the connection is closed.
final class BusLoop: @unchecked Sendable {
    // @unchecked: `bus`, `registration` and `provider` are used by the loop thread only once it runs (and by
    // `init` before); `stopping` and `finished` are the only state other threads read.
    private let bus: OpaquePointer
    private let registration: OpaquePointer
    private let provider: SecretServiceProvider
    private let completions: PromptCompletions
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchGroup()

    /// How long the loop waits for bus traffic before it looks at prompt completions and at ``stop()``.
    private static let pollInterval: UInt64 = 50_000

    /// Connects to the session bus (or to `address`), exports the Secret Service objects answered by a
    /// provider over `client`, and takes `org.freedesktop.secrets`.
    init(
        address: String?, client: any KeychainClient, isolation: SecretServiceIsolation, unlocker: SecretServiceUnlocker
    ) throws(SecretServiceError) {
        var opened: OpaquePointer?
        let result = address.map { address in address.withCString { coffer_secret_bus_open($0, &opened) } } ?? coffer_secret_bus_open(nil, &opened)
        guard result >= 0, let opened else { throw SecretServiceError("cannot connect to the session bus: \(Self.errorText(result))") }
        if let problem = SessionBusDaemon.problem(of: opened) {
            coffer_sd_bus_flush_close_unref(opened)
            throw SecretServiceError("will not serve this bus: \(problem)")
        }
        let completions = PromptCompletions()
        let provider = SecretServiceProvider(
            bus: opened, client: client, isolation: isolation, unlocker: unlocker, completions: completions)
        var registered: OpaquePointer?
        let context = Unmanaged.passUnretained(provider).toOpaque()
        let served = coffer_secret_serve(opened, Self.handler, context, &registered)
        guard served >= 0, let registered else {
            coffer_sd_bus_flush_close_unref(opened)
            if let registered { coffer_secret_release(registered) }
            throw SecretServiceError("cannot export the Secret Service objects: \(Self.errorText(served))")
        }
        // Sessions end with the client that opened them.
        let watched = coffer_secret_watch_departures(opened, registered)
        guard watched >= 0 else {
            coffer_sd_bus_flush_close_unref(opened)
            coffer_secret_release(registered)
            throw SecretServiceError("cannot watch clients leaving the bus: \(Self.errorText(watched))")
        }
        let named = coffer_secret_request_name(opened, SecretServiceServer.busName)
        guard named >= 0 else {
            coffer_sd_bus_flush_close_unref(opened)
            coffer_secret_release(registered)
            let reason = named == -EEXIST ? "another program owns it" : Self.errorText(named)
            throw SecretServiceError("cannot take the name \(SecretServiceServer.busName): \(reason)")
        }
        bus = opened
        registration = registered
        finished.enter()
        self.provider = provider
        self.completions = completions
    }

    /// Starts the loop thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "coffer-secret-service-bus"
        thread.start()
    }

    /// Asks the loop to end and waits until its connection is closed.
    func stop() {
        stopping.store(true, ordering: .releasing)
        finished.wait()
    }

    /// Waits until the loop has ended: stopped, or its connection lost.
    func waitUntilFinished() {
        finished.wait()
    }

    private func run() {
        while !stopping.load(ordering: .acquiring) {
            let stepped = coffer_secret_bus_step(bus, Self.pollInterval)
            for completion in completions.take() { provider.completePrompt(completion) }
            if stepped < 0 { break }
        }
        coffer_sd_bus_flush_close_unref(bus)
        coffer_secret_release(registration)
        finished.leave()
    }

    /// The one function the C trampolines call: the provider is the context `init` registered.
    private static let handler: coffer_secret_handler = { context, event, path, interface, member, message, error in
        guard let context, let path, let interface else { return -EINVAL }
        let provider = Unmanaged<SecretServiceProvider>.fromOpaque(context).takeUnretainedValue()
        return provider.handle(
            event, path: String(cString: path), interface: String(cString: interface), member: member.map { String(cString: $0) },
            message: message, error: error)
    }

    private static func errorText(_ result: Int32) -> String {
        String(cString: strerror(-result))
    }
}
