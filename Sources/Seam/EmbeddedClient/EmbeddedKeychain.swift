import CofferRuntime
import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations
import KeychainService
import TrustedPlatformModule
import Prompting

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
    ///
    /// When an access-controlled item or an `LAContext` needs the person, this process asks: on its terminal
    /// when it has one, otherwise through the pinentry `COFFER_PINENTRY` names or `pinentry` on `PATH` (read
    /// from `environment`); with neither, such calls fail with -25308 at once. Fingers are checked through
    /// fprintd when it runs.
    public init(
        folder: KeychainFolder, caller: CallerContext,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.caller = caller
        service = KeychainService(
            folder: folder, prompter: PasscodePrompter.standard(environment: environment).map(ProcessPrompter.init),
            biometry: SensorVerifier.fprintd(environment: environment), tpm: TPMSelection.fromEnvironment(environment))
        workers = WorkerThreads()
    }

    /// An embedded keychain over a service already made (with its own prompter and biometry: tests, tools).
    public init(service: KeychainService, caller: CallerContext) {
        self.caller = caller
        self.service = service
        workers = WorkerThreads()
    }

    /// Runs `request` on one of this keychain's worker threads while the calling task is suspended.
    /// A search or update that finds an item needing the person is authenticated and sent again
    /// (``AuthenticationRetry``).
    public func send(_ request: Request) async -> Response {
        let (service, caller, workers) = (service, caller, workers)
        return await AuthenticationRetry.run(request) { request in
            await workers.run({ service.handle(request, caller: caller) }, whenCancelled: .status(.userCanceled))
        }
    }

    /// Runs `request` on the calling thread.
    public func sendBlocking(_ request: Request) -> Response {
        AuthenticationRetry.run(request) { service.handle($0, caller: caller) }
    }
}
