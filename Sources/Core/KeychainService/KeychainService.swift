import CofferRuntime
import Engine
import KeychainModel
import KeychainOperations
import Keystore
import Query
import Synchronization
import TrustedPlatformModule

#if canImport(Glibc)
import Glibc
#endif

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
    /// Why the last attempt to open the files failed, while they are not open: given with the status it caused.
    private let openFailure = Mutex<KeychainFailure?>(nil)
    /// Whether reasons may name the folder's path: in this process's own keychain, not in the daemon's.
    private let namesFolderInReasons: Bool
    /// The TPM the keychain's device key is sealed by, or will be.
    let tpm: TPMSelection
    /// Who asks the person in ``handle(_:caller:)`` (the embedded keychain's terminal or pinentry).
    private let prompter: (any AuthenticationPrompter)?
    /// Authentication contexts' proofs and credentials, per session.
    let sessions: AuthenticationSessions
    /// The biometric verifier (fprintd), if any.
    let biometry: (any BiometricVerifier)?
    /// Threads for fingers held on the reader.
    let workers: WorkerThreads
    /// Token keys opened recently, forgotten whenever class keys leave memory.
    let openedTokenKeys = OpenedTokenKeys()
    /// Parts of restores being staged, per caller.
    let stagedRestores: StagedRestores

    /// A service over the keychain in `folder`, opened on first use. Reasons for people may name `folder`.
    ///
    /// `prompter` asks the person when an item or an `LAContext` needs the passcode; `biometry` verifies
    /// fingers; `restoreStaging` bounds staged restores; `now` is the clock authentication lifetimes and
    /// staged restores are measured with.
    public init(
        folder: KeychainFolder, registry: (any ProgramRegistry)? = nil, prompter: (any AuthenticationPrompter)? = nil,
        biometry: (any BiometricVerifier)? = nil, restoreStaging: RestoreStagingPool = RestoreStagingPool(limits: .inProcess),
        tpm: TPMSelection = .fromEnvironment(), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.folder = folder
        self.tpm = tpm
        self.registry = registry
        opened = Mutex(nil)
        namesFolderInReasons = true
        self.prompter = prompter
        self.biometry = biometry
        sessions = AuthenticationSessions(now: now)
        stagedRestores = StagedRestores(pool: restoreStaging, now: now)
        workers = WorkerThreads(maximum: 4)
    }

    /// A service over an engine already open (the daemon's): reasons never name the folder's path.
    /// `restoreStaging` is shared by the daemon's services, so its total bounds every user's staged restores.
    public init(
        engine: KeychainEngine, registry: (any ProgramRegistry)? = nil, biometry: (any BiometricVerifier)? = nil,
        restoreStaging: RestoreStagingPool = RestoreStagingPool(), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        folder = engine.keystore.folder
        tpm = engine.keystore.tpmSelection
        self.registry = registry
        opened = Mutex(engine)
        namesFolderInReasons = false
        prompter = nil
        self.biometry = biometry
        sessions = AuthenticationSessions(now: now)
        stagedRestores = StagedRestores(pool: restoreStaging, now: now)
        workers = WorkerThreads(maximum: 4)
        Self.forgetOpenedKeys(openedTokenKeys, whenLocking: engine)
    }

    /// The engine over this keychain's files, opened on first use.
    public func engine() throws(KeychainStatus) -> KeychainEngine {
        try opened.withLock { (engine: inout KeychainEngine?) throws(KeychainStatus) -> KeychainEngine in
            if let engine { return engine }
            let fresh: KeychainEngine
            do throws(KeychainFailure) {
                fresh = try KeychainEngine.openExplaining(folder: folder, tpm: tpm)
            } catch {
                openFailure.withLock { $0 = error }
                throw error.status
            }
            openFailure.withLock { $0 = nil }
            Self.forgetOpenedKeys(openedTokenKeys, whenLocking: fresh)
            engine = fresh
            return fresh
        }
    }

    /// Empties `keys` each time `engine`'s keystore drops class keys.
    private static func forgetOpenedKeys(_ keys: OpenedTokenKeys, whenLocking engine: KeychainEngine) {
        engine.keystore.whenClassKeysDropped { keys.removeAll() }
    }

    /// Answers `request` for `caller`, in this process's own session: a prompt is the service's prompter's.
    /// Blocks until the answer, a person's included.
    public func handle(_ request: Request, caller: CallerContext) -> Response {
        guard case .authenticate = request else { return answer(request, caller: caller, session: 0) }
        let setting = AuthenticationSetting(session: 0, requester: Self.thisProgram, prompter: prompter)
        let slot = ReplySlot()
        handle(request, caller: caller, setting: setting, reply: slot.deliver)
        return slot.wait()
    }

    /// Answers `request` for `caller` in `setting`: `reply` is called exactly once, at once or, for an
    /// authentication that waits on a person, later from another thread.
    public func handle(
        _ request: Request, caller: CallerContext, setting: AuthenticationSetting, reply: @escaping @Sendable (Response) -> Void
    ) {
        guard case .authenticate(let authentication) = request else {
            return reply(answer(request, caller: caller, session: setting.session))
        }
        authenticationFlow.authenticate(authentication, in: setting.flowSetting(charging: caller.passcodeAttempts)) { response, asked in
            self.recordAuthentication(request.name, caller: caller, answer: response, askedPerson: asked)
            reply(response)
        }
    }

    /// The answers of every request but ``Request/authenticate(_:)``, recorded in the audit journal when they are
    /// events it keeps (``auditEvent(of:)``).
    private func answer(_ request: Request, caller: CallerContext, session: UInt64) -> Response {
        let response = respond(request, caller: caller, session: session)
        audit(request, caller: caller, answer: response)
        return response
    }

    /// The answers of every request but ``Request/authenticate(_:)``: none of them waits for a person.
    private func respond(_ request: Request, caller: CallerContext, session: UInt64) -> Response {
        switch request {
        case .authenticate:
            preconditionFailure("an authentication is answered by handle(_:caller:setting:reply:)")
        case .add(let query):
            return serveItem(caller: caller, session: session) { () throws(QueryRejection) in .add(try QueryParser.parseAdd(query)) }
        case .addEach(let queries):
            return addEach(queries, caller: caller)
        case .copyMatching(let query):
            return serveItem(caller: caller, session: session) { () throws(QueryRejection) in .search(try QueryParser.parseSearch(query)) }
        case .update(let query, let attributes):
            return serveItem(caller: caller, session: session) { () throws(QueryRejection) in
                .update(try QueryParser.parseUpdate(query: query, attributesToUpdate: attributes))
            }
        case .delete(let query):
            return serveItem(caller: caller, session: session) { () throws(QueryRejection) in .delete(try QueryParser.parseDelete(query)) }
        case .setCredential(let context, let password):
            sessions.setApplicationPassword(password, session: session, context: context)
            return .status(.success)
        case .invalidateContext(let context):
            sessions.invalidate(session: session, context: context)
            return .status(.success)
        case .authenticationCapabilities:
            return keystore { () throws(KeystoreError) in
                .authenticationCapabilities(
                    AuthenticationCapabilities(
                        passcodeSet: try keystore().isPasscodeSet, biometry: authenticationFlow.biometryState()))
            }
        case .lockStatus:
            return keystore { () throws(KeystoreError) in .lockStatus(try keystore().status()) }
        case .unlock(let passcode):
            return keystore { () throws(KeystoreError) in try keystore().unlock(passcode: passcode, charging: caller.passcodeAttempts) }
        case .proveOwner(let passcode):
            return keystore { () throws(KeystoreError) in try keystore().proveOwner(passcode: passcode, charging: caller.passcodeAttempts) }
        case .lock:
            return keystore { () throws(KeystoreError) in try keystore().lock() }
        case .setPasscode(let new):
            return keystore { () throws(KeystoreError) in try keystore().setPasscode(new, kdf: .forNewPasscodes) }
        case .changePasscode(let old, let new):
            return keystore { () throws(KeystoreError) in
                try keystore().changePasscode(from: old, to: new, kdf: .forNewPasscodes, charging: caller.passcodeAttempts)
            }
        case .removePasscode(let current):
            return keystore { () throws(KeystoreError) in try keystore().removePasscode(current: current, charging: caller.passcodeAttempts) }
        case .setEraseAfterFailedAttempts(let enabled, let passcode):
            return keystore { () throws(KeystoreError) in
                try keystore().setEraseAfterFailedAttempts(enabled, passcode: passcode, charging: caller.passcodeAttempts)
            }
        case .createTokenKey(let creation):
            return createTokenKey(creation)
        case .useTokenKey(let use):
            return useTokenKey(use, caller: caller, session: session)
        case .makeFileKey(let protection):
            return keystore { () throws(KeystoreError) in .fileKey(try keystore().makeFileKey(protection)) }
        case .unwrapFileKey(let wrapped):
            return keystore { () throws(KeystoreError) in .fileKey(try keystore().unwrapFileKey(wrapped)) }
        case .exportBackup(let export):
            return exportBackup(export, caller: caller)
        case .stageRestore(let part):
            return stageRestore(part, caller: caller, session: session)
        case .restoreBackup(let restore):
            return restoreBackup(restore, caller: caller, session: session)
        case .syncState:
            return syncState()
        case .syncNow:
            return syncNow()
        case .syncAccount:
            return syncAccount()
        case .deviceKeyBinding(let change):
            return deviceKeyBinding(change, caller: caller)
        case .auditRecords(let read):
            return auditRecords(read, caller: caller)
        case .auditSetting(let setting):
            return auditSetting(setting, caller: caller)
        case .unlockWithPrompt, .awaitPrompt, .answerPrompt, .proveOwnerWithPrompt:
            return .keystoreError(
                .unavailable(
                    reason: "prompts come from the daemon's prompt agent (cofferd); this keychain is embedded, so pass the passcode"))
        case .appsList:
            return registryCall(passcode: nil, caller: caller) { (_: any ProgramRegistry) throws(KeychainFailure) in }
        case .appsAdd(let registration, let passcode):
            return registryCall(passcode: passcode, caller: caller) { registry throws(KeychainFailure) in try registry.register(registration) }
        case .appsRemove(let selector, let passcode):
            return registryCall(passcode: passcode, caller: caller) { registry throws(KeychainFailure) in try registry.remove(selector) }
        }
    }

    /// How many authentication contexts `session` keeps (at most 64).
    public func authenticationContextCount(session: UInt64) -> Int { sessions.count(in: session) }

    /// Forgets the authentication contexts and the staged restores of `session` (a connection that closed).
    public func endSession(_ session: UInt64) {
        sessions.endSession(session)
        stagedRestores.drop(session: session)
    }

    /// The program this process runs, as a prompt names it.
    private static var thisProgram: String {
        guard let path = CommandLine.arguments.first, !path.isEmpty else { return "this program" }
        return "\(path) (process \(getpid()))"
    }

    // MARK: Items

    /// The engine's answer, or its refusal with the rule and the reason; `errSecReadOnly` says why the folder is
    /// read-only, and a keychain that cannot be opened why not (embedded only: the daemon does not name its files).
    func run<Result>(_ body: () throws(EngineRefusal) -> Result) throws(EngineRefusal) -> Result {
        do {
            return try body()
        } catch {
            if error.status == .readOnly { throw EngineRefusal(.readOnly, nil, readOnlyReason) }
            if let failure = openFailure.withLock({ $0 }), failure.status == error.status, opened.withLock({ $0 == nil }) {
                throw EngineRefusal(failure.status, nil, namesFolderInReasons ? failure.reason : nil)
            }
            throw error
        }
    }

    /// The engine, when the files are open already: nothing is opened or made.
    var openedEngineIfAny: KeychainEngine? { opened.withLock { $0 } }

    /// ``engine()``, its failure as a refusal.
    func openedEngine() throws(EngineRefusal) -> KeychainEngine {
        do {
            return try engine()
        } catch {
            throw EngineRefusal(error)
        }
    }

    /// A search, update or delete in an embedded keychain whose folder does not exist finds nothing, as Apple's
    /// would, without making the folder: a mistyped `COFFER_HOME` is not a new keychain. The reason says so.
    func missingKeychainAnswer() -> Response? {
        guard namesFolderInReasons, opened.withLock({ $0 == nil }) else { return nil }
        let path = folder.url.path
        guard access(path, F_OK) != 0, errno == ENOENT else { return nil }
        return .failure(.itemNotFound, reason: "there is no keychain at \(path): it is made when the first item is added there")
    }

    /// Why a change to a read-only keychain was refused, for people.
    private var readOnlyReason: String {
        namesFolderInReasons
            ? folder.readOnlyReason
            : "this user's keychain folder is read-only for the daemon; the keychain can be read but not modified, and nothing was changed"
    }

    // MARK: Keystore

    func keystore() throws(KeystoreError) -> Keystore {
        do {
            return try engine().keystore
        } catch {
            // Open the keystore alone to report the precise reason (a damaged keybag, a missing device key…).
            return try Keystore.open(folder: folder, tpm: tpm)
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
