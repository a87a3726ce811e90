import KeychainClient
import Synchronization

/// A freedesktop Secret Service provider (`org.freedesktop.secrets`, spec 0.2) over a Coffer keychain.
///
/// It serves the session bus from a thread of its own: `libsecret`, `secret-tool` and the other Secret
/// Service clients store and read Coffer generic-password items through it, encrypted as every item is.
/// It has one collection, `login` (alias `default`), `plain` and `dh-ietf1024-sha256-aes128-cbc-pkcs7`
/// sessions, and unlocks through the ``SecretServiceUnlocker`` it is given. Each client is identified from the
/// bus's credentials as cofferd identifies its callers, and sees only what its program may see
/// (``SecretServiceIsolation``).
public final class SecretServiceServer: Sendable {
    /// The well-known name the provider takes on the session bus.
    public static let busName = "org.freedesktop.secrets"

    private let client: any KeychainClient
    private let unlocker: SecretServiceUnlocker
    private let isolation: SecretServiceIsolation
    private let loop = Mutex<BusLoop?>(nil)

    /// A provider over `client` that keeps programs apart as `isolation` says, and unlocks with `unlocker` when
    /// a client's prompt asks it to.
    public init(client: any KeychainClient, isolation: SecretServiceIsolation = .perProgram, unlocker: SecretServiceUnlocker = .unavailable) {
        self.client = client
        self.isolation = isolation
        self.unlocker = unlocker
    }

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`), or to the bus at `busAddress`, exports the
    /// objects, takes ``busName`` and serves on a dedicated thread until ``stop()``.
    ///
    /// - Throws: ``SecretServiceError`` when there is no bus, or when another provider owns the name.
    public func start(busAddress: String? = nil) throws(SecretServiceError) {
        let started = try BusLoop(address: busAddress, client: client, isolation: isolation, unlocker: unlocker)
        loop.withLock { $0 = started }
        started.start()
    }

    /// Stops serving: the name is released with the connection. Does nothing when not started.
    public func stop() {
        let running = loop.withLock { loop in
            defer { loop = nil }
            return loop
        }
        running?.stop()
    }

    /// Waits until the provider stops serving: ``stop()`` was called, or the bus connection was lost.
    public func waitUntilFinished() {
        loop.withLock { $0 }?.waitUntilFinished()
    }
}
