import KeychainModel
import KeychainOperations
import KeychainService

/// The keychain in this process: the keychain service over the files in one keychain folder, with the
/// caller's access groups (`COFFER_ACCESS_GROUPS` in embedded mode).
///
/// ``send(_:)`` runs each request on Coffer's own threads; ``sendBlocking(_:)`` runs it on the calling
/// thread. The files are opened on first use; a failed open is tried again on the next request.
public final class EmbeddedKeychain: KeychainClient {
    /// The keychain folder.
    public var folder: KeychainFolder { service.folder }
    /// The caller's access groups.
    public let caller: CallerContext
    /// The handler every request goes through, as in the daemon.
    public let service: KeychainService
    private let workers: WorkerThreads

    /// A keychain in `folder` for `caller`.
    public init(folder: KeychainFolder, caller: CallerContext) {
        self.caller = caller
        service = KeychainService(folder: folder)
        workers = WorkerThreads()
    }

    /// Runs `request` on one of this keychain's worker threads while the calling task is suspended.
    public func send(_ request: Request) async -> Response {
        let (service, caller) = (service, caller)
        return await workers.run({ service.handle(request, caller: caller) }, whenCancelled: .status(.userCanceled))
    }

    /// Runs `request` on the calling thread.
    public func sendBlocking(_ request: Request) -> Response {
        service.handle(request, caller: caller)
    }
}
