import Engine
import KeychainModel
import KeychainOperations
import Keystore
import Query
import Synchronization

/// The one handler of every ``Request``: it serves the embedded keychain in this process, and each
/// user's keychain in the daemon once a frame is decoded, so both answer alike, status for status.
///
/// Item requests are parsed by `QueryParser` and run by the engine with the caller's access groups;
/// keystore requests go to the keystore; registry requests to the ``ProgramRegistry`` the daemon gives
/// (the embedded keychain has none and refuses them). The engine is opened on first use; a failed open
/// is tried again on the next request.
///
/// `handle(_:caller:)` blocks: it may run the passcode KDF or write and `fsync` SQLite. Call it on a
/// thread of Coffer's own (``WorkerThreads``), or on a thread the caller chose to block, never on the
/// cooperative pool.
public final class KeychainService: Sendable {
    /// The keychain folder.
    public let folder: KeychainFolder
    private let registry: (any ProgramRegistry)?
    private let opened: Mutex<KeychainEngine?>
    /// Whether reasons may name the folder's path: in this process's own keychain, not in the daemon's.
    private let namesFolderInReasons: Bool

    /// A service over the keychain in `folder`, opened on first use. Reasons for people may name `folder`.
    public init(folder: KeychainFolder, registry: (any ProgramRegistry)? = nil) {
        self.folder = folder
        self.registry = registry
        opened = Mutex(nil)
        namesFolderInReasons = true
    }

    /// A service over an engine already open (the daemon's): reasons never name the folder's path.
    public init(engine: KeychainEngine, registry: (any ProgramRegistry)? = nil) {
        folder = engine.keystore.folder
        self.registry = registry
        opened = Mutex(engine)
        namesFolderInReasons = false
    }

    /// The engine over this keychain's files, opened on first use.
    public func engine() throws(KeychainStatus) -> KeychainEngine {
        try opened.withLock { (engine: inout KeychainEngine?) throws(KeychainStatus) -> KeychainEngine in
            if let engine { return engine }
            let fresh = try KeychainEngine.open(folder: folder)
            engine = fresh
            return fresh
        }
    }

    /// Answers `request` for `caller`.
    public func handle(_ request: Request, caller: CallerContext) -> Response {
        switch request {
        case .add(let query):
            return item { () throws(KeychainFailure) in
                let request = try parsed(QueryParser.parseAdd(query))
                return try run { () throws(KeychainStatus) in try engine().add(request, caller: caller) }
            }
        case .copyMatching(let query):
            return item { () throws(KeychainFailure) in
                let request = try parsed(QueryParser.parseSearch(query))
                return try run { () throws(KeychainStatus) in try engine().copyMatching(request, caller: caller) }
            }
        case .update(let query, let attributes):
            return item { () throws(KeychainFailure) in
                let request = try parsed(QueryParser.parseUpdate(query: query, attributesToUpdate: attributes))
                try run { () throws(KeychainStatus) in try engine().update(request, caller: caller) }
                return nil
            }
        case .delete(let query):
            return item { () throws(KeychainFailure) in
                let request = try parsed(QueryParser.parseDelete(query))
                try run { () throws(KeychainStatus) in try engine().delete(request, caller: caller) }
                return nil
            }
        case .lockStatus:
            return keystore { () throws(KeystoreError) in .lockStatus(try keystore().status()) }
        case .unlock(let passcode):
            return keystore { () throws(KeystoreError) in try keystore().unlock(passcode: passcode, charging: caller.passcodeAttempts) }
        case .lock:
            return keystore { () throws(KeystoreError) in try keystore().lock() }
        case .setPasscode(let new):
            return keystore { () throws(KeystoreError) in try keystore().setPasscode(new, kdf: .forNewPasscodes) }
        case .changePasscode(let old, let new):
            return keystore { () throws(KeystoreError) in try keystore().changePasscode(from: old, to: new, kdf: .forNewPasscodes, charging: caller.passcodeAttempts) }
        case .removePasscode(let current):
            return keystore { () throws(KeystoreError) in try keystore().removePasscode(current: current, charging: caller.passcodeAttempts) }
        case .setEraseAfterFailedAttempts(let enabled, let passcode):
            return keystore { () throws(KeystoreError) in try keystore().setEraseAfterFailedAttempts(enabled, passcode: passcode, charging: caller.passcodeAttempts) }
        case .unlockWithPrompt, .awaitPrompt, .answerPrompt:
            return .keystoreError(.unavailable(
                reason: "prompts come from the daemon's prompt agent (cofferd); this keychain is embedded, so pass the passcode"))
        case .appsList:
            return registryCall(passcode: nil, caller: caller) { (_: any ProgramRegistry) throws(KeychainFailure) in }
        case .appsAdd(let registration, let passcode):
            return registryCall(passcode: passcode, caller: caller) { registry throws(KeychainFailure) in try registry.register(registration) }
        case .appsRemove(let selector, let passcode):
            return registryCall(passcode: passcode, caller: caller) { registry throws(KeychainFailure) in try registry.remove(selector) }
        }
    }

    // MARK: Items

    /// A parsed request, or the parser's refusal with its rule, key and reason.
    private func parsed<Request>(_ parse: @autoclosure () throws(QueryRejection) -> Request) throws(KeychainFailure) -> Request {
        do {
            return try parse()
        } catch {
            throw KeychainFailure(error.status, reason: error.message)
        }
    }

    /// The engine's answer, or its status; `errSecReadOnly` comes with the reason (the folder is read-only).
    private func run<Result>(_ body: () throws(KeychainStatus) -> Result) throws(KeychainFailure) -> Result {
        do {
            return try body()
        } catch {
            guard error == .readOnly else { throw KeychainFailure(error) }
            throw KeychainFailure(error, reason: readOnlyReason)
        }
    }

    /// Why a change to a read-only keychain was refused, for people.
    private var readOnlyReason: String {
        namesFolderInReasons
            ? folder.readOnlyReason
            : "this user's keychain folder is read-only for the daemon; the keychain can be read but not modified, and nothing was changed"
    }

    private func item(_ call: () throws(KeychainFailure) -> KeychainValue?) -> Response {
        do {
            return .value(try call())
        } catch {
            return Response(error)
        }
    }

    // MARK: Keystore

    private func keystore() throws(KeystoreError) -> Keystore {
        do {
            return try engine().keystore
        } catch {
            // Open the keystore alone to report the precise reason (a damaged keybag, a missing device key…).
            return try Keystore.open(folder: folder)
        }
    }

    private func keystore(_ call: () throws(KeystoreError) -> Response) -> Response {
        do {
            return try call()
        } catch {
            return .keystoreError(error)
        }
    }

    private func keystore(_ call: () throws(KeystoreError) -> Void) -> Response {
        keystore { () throws(KeystoreError) -> Response in
            try call()
            return .status(.success)
        }
    }

    // MARK: Registry

    /// Runs a registry call. Edits need the keychain passcode, verified (and counted) like an unlock but
    /// without changing the lock state, so that a program of the user cannot grant itself another
    /// program's groups; without a passcode there is nothing only the user knows, and edits are refused.
    private func registryCall(
        passcode: SecretBytes?, caller: CallerContext, _ call: (any ProgramRegistry) throws(KeychainFailure) -> Void
    ) -> Response {
        guard let registry else {
            return .failure(.unimplemented, reason: "the program registry lives in the daemon (cofferd); this keychain is embedded")
        }
        if let passcode {
            do {
                let keystore = try keystore()
                guard keystore.isPasscodeSet else { return .keystoreError(.noPasscodeSet) }
                try PasscodeVerifier(keystore: keystore).verify(passcode, charging: caller.passcodeAttempts)
            } catch {
                return .keystoreError(error)
            }
        }
        do {
            try call(registry)
            return .apps(registry.registeredApps)
        } catch {
            return Response(error)
        }
    }
}
