import Engine
import KeychainModel
import KeychainOperations
import Query

extension KeychainService {
    /// The flow that proves presence for `LAContext`s and for access-controlled items.
    var authenticationFlow: AuthenticationFlow {
        AuthenticationFlow(sessions: sessions, biometry: biometry, workers: workers) { () throws(KeystoreError) in try self.keystore() }
    }

    /// Parses and runs an item request. When an item needs authentication and the call may prompt (§6.4),
    /// the answer is ``Response/authenticationNeeded(_:)`` with what the person must prove: the client
    /// authenticates the call's context and sends the call again, as Apple's client does on `errSecAuthNeeded`.
    ///
    /// The call is recorded in the audit journal unless `audited` is false (the keychain's own searches).
    func serveItem(
        caller: CallerContext, session: UInt64, audited: Bool = true, parse: () throws(QueryRejection) -> ItemCall
    ) -> Response {
        let call: ItemCall
        do {
            call = try parse()
        } catch {
            return .failure(error.status, reason: error.message)
        }
        if case .add = call {} else if let missing = missingKeychainAnswer() { return missing }
        let context = call.authentication.contextReference?.context
        let authorization = authorization(for: call, session: session, context: context)
        let trail = ItemTrail()
        let answer = run(call, caller: caller, authorization: authorization, trail: trail)
        return audited ? audit(call, caller: caller, trail: trail, answer: answer) : answer
    }

    /// What the call's context has proved, its application password, and, when the call stores a
    /// `biometryCurrentSet` access control, the enrolled set now.
    private func authorization(for call: ItemCall, session: UInt64, context: AuthenticationContextID?) -> ItemAuthorization {
        let (verified, password) = sessions.authorization(session: session, context: context)
        var authorization = ItemAuthorization(verified: verified, applicationPassword: password)
        if call.bindsBiometry, case .available(let set) = authenticationFlow.biometryState() {
            authorization.currentBiometrySet = set
        }
        return authorization
    }

    /// Runs a parsed call in the engine.
    private func run(_ call: ItemCall, caller: CallerContext, authorization: ItemAuthorization, trail: ItemTrail) -> Response {
        do {
            let value = try run { () throws(EngineRefusal) -> KeychainValue? in
                let engine = try openedEngine()
                switch call {
                case .add(let add): return try engine.add(add, caller: caller, authorization: authorization, trail: trail)
                case .search(let search): return try engine.copyMatching(search, caller: caller, authorization: authorization, trail: trail)
                case .update(let update):
                    try engine.update(update, caller: caller, authorization: authorization, trail: trail)
                    return nil
                case .delete(let delete):
                    try engine.delete(delete, caller: caller, trail: trail)
                    return nil
                }
            }
            return .value(value)
        } catch {
            return Response(error)
        }
    }
}

extension Response {
    /// The engine's refusal as an answer: `errSecAuthNeeded` as what the person must prove (the client
    /// authenticates and sends the call again), any other as its status with the rule and the reason.
    init(_ refusal: EngineRefusal) {
        if let requirement = refusal.requirement {
            self = .authenticationNeeded(requirement)
        } else {
            self.init(refusal.failure)
        }
    }
}
