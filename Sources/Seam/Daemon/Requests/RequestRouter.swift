import CofferDiagnostics
import KeychainModel
import KeychainOperations
import KeychainService
import Logging

/// Routes one user's requests: reserved ones are refused to programs that are not trusted front ends,
/// prompt requests go through the user's ``PromptBroker``, and everything else to the keychain service.
///
/// ``route(_:from:reply:)`` may block (SQLite, the passcode KDF): the server calls it on a worker thread,
/// never on the watcher. `reply` may be called later, from another thread, for a request that waits on
/// a person; it is called exactly once.
struct RequestRouter: Sendable {
    let keychain: UserKeychain
    /// The keychain folder's path, kept out of what clients are told (``InternalPathRedaction``).
    private let folderPath: String
    private let logger = DiagnosticsLevel.logger(label: "coffer.daemon")

    init(keychain: UserKeychain) {
        self.keychain = keychain
        folderPath = keychain.folder.url.path
    }

    func route(_ request: Request, from origin: RequestOrigin, reply answer: @escaping PromptBroker.Reply) {
        keychain.touch()
        let folder = folderPath
        let reply: PromptBroker.Reply = { response in answer(InternalPathRedaction.redacting(response, folder: folder)) }
        if TrustedFrontEndPolicy.isReserved(request.kind), !origin.isTrustedFrontEnd {
            logger.notice(
                "refused a reserved request from a program that is not a trusted front end",
                metadata: ["request": "\(request.name)", "caller": "\(origin.description)", "uid": "\(keychain.uid)"])
            reply(TrustedFrontEndPolicy.refusal(for: request.kind))
            return
        }
        if origin.needsOwnerProof, let refusal = ownerRefusal(request.kind, from: origin) {
            logger.notice(
                "refused an owner's request without the owner's proof",
                metadata: ["request": "\(request.name)", "caller": "\(origin.description)", "uid": "\(keychain.uid)"])
            reply(.keystoreError(refusal))
            return
        }
        switch request {
        case .proveOwner:
            let response = keychain.service.handle(request, caller: origin.caller)
            if response == .status(.success) { keychain.owners.record(origin.connection) }
            reply(response)
        case .proveOwnerWithPrompt(let reason):
            let service = keychain.service
            OwnerProofPrompt(keychain: keychain).ask(reason: reason, from: origin) { response, asked in
                service.recordAuthentication(request.name, caller: origin.caller, answer: response, askedPerson: asked)
                reply(response)
            }
        case .unlockWithPrompt:
            let keystore = keychain.engine.keystore
            guard keystore.isPasscodeSet, keystore.lockState != .unlocked else { return reply(.status(.success)) }
            keychain.prompts.ask(.unlock, requester: origin.description, connection: origin.connection, reply: reply)
        case .awaitPrompt:
            keychain.prompts.agentAwaits(connection: origin.connection, agent: origin.description, reply: reply)
        case .answerPrompt(let id, let passcode):
            reply(answerPrompt(id, passcode: passcode, from: origin))
        case .syncState(let known):
            keychain.sync.state(changedFrom: known, reply: reply)
        case .syncNow:
            keychain.sync.runNow(reply: reply)
        case .syncAccount(let account):
            let (service, caller) = (keychain.service, origin.caller)
            keychain.sync.manageAccount(account) { response in
                if let record = DaemonAuditRecords.syncChange(account, caller: caller, answer: response) { service.recordAudit(record) }
                reply(response)
            }
        default:
            let setting = AuthenticationSetting(
                session: origin.connection, requester: origin.description,
                prompter: BrokerPrompter(broker: keychain.prompts, connection: origin.connection))
            let (logger, uid) = (logger, keychain.uid)
            keychain.service.handle(request, caller: caller(of: origin), setting: setting) { response in
                if case .keystoreError(let error) = response, case .wrongPasscode(let failed, _) = error {
                    logger.notice(
                        "wrong passcode", metadata: ["caller": "\(origin.description)", "uid": "\(uid)", "failedAttempts": "\(failed)"])
                }
                reply(response)
            }
        }
    }

    /// The caller `origin` is for this request: with the owner's groups (``OwnerAccessGroups``) when it needs no
    /// proof, proved the passcode, or is a trusted front end of a keychain with no passcode to prove. Another program
    /// never gets them without the proof.
    private func caller(of origin: RequestOrigin) -> CallerContext {
        let isOwner =
            !origin.needsOwnerProof || keychain.owners.isProven(origin.connection)
            || (origin.isTrustedFrontEnd && !keychain.engine.keystore.isPasscodeSet)
        return isOwner ? origin.callerAsOwner : origin.caller
    }

    /// Why an owner's request (``OwnerGradePolicy``) from `origin` is refused, or nil when it may go on.
    private func ownerRefusal(_ kind: Request.Kind, from origin: RequestOrigin) -> KeystoreError? {
        guard OwnerGradePolicy.isOwnerGrade(kind) else { return nil }
        let keystore = keychain.engine.keystore
        let erased: Bool
        if OwnerGradePolicy.needsErasedState(kind) {
            do {
                erased = try keystore.isErasedAwaitingPasscode()
            } catch {
                return error
            }
        } else {
            erased = false
        }
        let facts = OwnerGradePolicy.Facts(
            passcodeSet: keystore.isPasscodeSet, erasedAwaitingPasscode: erased,
            connectionProven: keychain.owners.isProven(origin.connection),
            connectionIsAgent: keychain.prompts.isAgent(origin.connection))
        return OwnerGradePolicy.refusal(for: kind, facts: facts)
    }

    /// The agent's answer: the person's passcode is checked against the keybag's count (the only attempts
    /// that count toward erasing), and the program that asked is answered once the prompt ends.
    private func answerPrompt(_ id: UInt64, passcode: SecretBytes?, from origin: RequestOrigin) -> Response {
        guard case .check(let prompt) = keychain.prompts.answer(id, from: origin.connection) else {
            return .keystoreError(.cancelled)
        }
        guard let passcode else {
            keychain.prompts.settle(id, with: .keystoreError(.cancelled))
            return .status(.success)
        }
        if prompt.purpose == .authenticate {
            let response = keychain.prompts.confirm(id, passcode: passcode)
            if case .keystoreError(.wrongPasscode(let failed, _)) = response {
                logger.notice("wrong passcode at an authentication prompt", metadata: ["uid": "\(keychain.uid)", "failedAttempts": "\(failed)"])
            }
            return response
        }
        let person = CallerContext(accessGroups: .list([]), passcodeAttempts: .keybag, identity: CallerIdentity(uid: keychain.uid, kind: .person))
        let response = keychain.service.handle(.unlock(passcode: passcode), caller: person)
        switch response {
        case .keystoreError(.wrongPasscode(let failed, _)):
            logger.notice("wrong passcode at the prompt", metadata: ["uid": "\(keychain.uid)", "failedAttempts": "\(failed)"])
            keychain.prompts.countFailure(id)
        default:
            keychain.prompts.settle(id, with: response)
        }
        return response
    }
}
