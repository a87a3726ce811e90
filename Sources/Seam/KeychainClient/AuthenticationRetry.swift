import KeychainModel
import KeychainOperations
import Query

/// What a client does when an item call answers ``Response/authenticationNeeded(_:)``, as Apple's client
/// does with `errSecAuthNeeded`: it asks the keychain to authenticate the call's context (the prompt, which
/// may wait for a person), then sends the call again with the context, up to three times. A call that named
/// no context gets one for itself, forgotten when the call ends.
///
/// Only the authentication waits for a person, so item requests keep the short reply time-out and a stalled
/// daemon is still noticed.
package struct AuthenticationRetry {
    /// What to send next, or the final answer.
    enum Step {
        case send(Request)
        case done(Response)
    }

    private var call: Request
    private var context: AuthenticationContextID?
    private var ownContext: AuthenticationContextID?
    private var rounds = 0
    private var awaitingAuthentication = false

    /// How many times one call asks the person before it gives up.
    static let rounds = 3

    /// A retry for `call`; nil when the request is neither an item read nor a token key's use, the calls
    /// that may need the person.
    init?(_ call: Request) {
        switch call {
        case .copyMatching, .update, .useTokenKey: self.call = call
        default: return nil
        }
    }

    /// The first request to send.
    var first: Request { call }

    /// What follows `response` to the request last sent.
    mutating func next(after response: Response) -> Step {
        if awaitingAuthentication {
            awaitingAuthentication = false
            switch response {
            case .status(let status) where status.isSuccess: return .send(call)
            case .authenticationFailure(let failure): return finish(.failure(failure.status, reason: failure.reason))
            default: return finish(response)
            }
        }
        guard case .authenticationNeeded(let requirement) = response else { return finish(response) }
        guard rounds < Self.rounds, let options = call.authenticationOptions else {
            return finish(.failure(.authFailed, reason: "the call needs more authentication than the person gave"))
        }
        rounds += 1
        if context == nil {
            if let given = options.context {
                context = given
            } else {
                let fresh = AuthenticationContextID.random()
                context = fresh
                ownContext = fresh
                call = call.withAuthenticationContext(fresh)
            }
        }
        awaitingAuthentication = true
        return .send(.authenticate(AuthenticationRequest(context: context!, requirement: requirement, reason: options.prompt)))
    }

    /// The request that forgets the call's own context, once the call is over.
    var cleanup: Request? { ownContext.map { .invalidateContext($0) } }

    private func finish(_ response: Response) -> Step { .done(response) }

    fileprivate static func options(of query: QueryDictionary) -> (context: AuthenticationContextID?, prompt: String) {
        var context: AuthenticationContextID?
        if let value = query[QueryKey.useAuthenticationContext] { context = AuthenticationContextReference(value)?.context }
        if context == nil, case .data(let bytes)? = query[QueryKey.useCredentialReference] {
            context = AuthenticationContextID(bytes: bytes)
        }
        guard case .string(let prompt)? = query[QueryKey.useOperationPrompt] else { return (context, "") }
        return (context, prompt)
    }
}

extension Request {
    /// The context and the prompt of a search, an update or a token key's use.
    fileprivate var authenticationOptions: (context: AuthenticationContextID?, prompt: String)? {
        switch self {
        case .copyMatching(let query), .update(let query, _): AuthenticationRetry.options(of: query)
        case .useTokenKey(let use): (use.authentication.context, use.authentication.prompt)
        default: nil
        }
    }

    /// The same call, authenticated by `context`.
    fileprivate func withAuthenticationContext(_ context: AuthenticationContextID) -> Request {
        let reference = AuthenticationContextReference(context: context).keychainValue
        switch self {
        case .copyMatching(var query):
            query[QueryKey.useAuthenticationContext] = reference
            return .copyMatching(query)
        case .update(var query, let changes):
            query[QueryKey.useAuthenticationContext] = reference
            return .update(query: query, attributesToUpdate: changes)
        case .useTokenKey(var use):
            use.authentication.context = context
            return .useTokenKey(use)
        default:
            return self
        }
    }
}

extension AuthenticationRetry {
    /// Runs `request` with `send`, authenticating as the keychain asks.
    package static func run(_ request: Request, send: (Request) -> Response) -> Response {
        guard var retry = AuthenticationRetry(request) else { return send(request) }
        var next = retry.first
        while true {
            switch retry.next(after: send(next)) {
            case .send(let request): next = request
            case .done(let response):
                if let cleanup = retry.cleanup { _ = send(cleanup) }
                return response
            }
        }
    }

    /// The `async` form of ``run(_:send:)``.
    package static func run(_ request: Request, send: (Request) async -> Response) async -> Response {
        guard var retry = AuthenticationRetry(request) else { return await send(request) }
        var next = retry.first
        while true {
            switch retry.next(after: await send(next)) {
            case .send(let request): next = request
            case .done(let response):
                if let cleanup = retry.cleanup { _ = await send(cleanup) }
                return response
            }
        }
    }
}
