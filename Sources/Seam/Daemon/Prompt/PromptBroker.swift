import KeychainModel
import KeychainOperations
import KeychainService
import Synchronization

/// One user's prompt agent and the questions waiting for it: polkit's model, with cofferd in the middle.
///
/// The agent (`coffer prompt-agent`, a trusted front end) keeps an ``Request/awaitPrompt`` request open;
/// a program's ``Request/unlockWithPrompt`` becomes a ``Prompt`` handed to the agent as the answer to that
/// request; the agent's ``Request/answerPrompt(id:passcode:)`` carries what the person typed straight to
/// the daemon, which unlocks and then answers the program. The program never sees the passcode.
///
/// Answers are delivered through callbacks, so no thread waits for a person. One agent per user: a second
/// one is refused while the first is connected.
final class PromptBroker: Sendable {
    /// Delivers an answer to a waiting request.
    typealias Reply = @Sendable (Response) -> Void

    private struct Question {
        var prompt: Prompt
        var requesterConnection: UInt64
        var reply: Reply
        /// For an authentication: checks the passcode the agent sends (an unlock unlocks instead).
        var check: (@Sendable (SecretBytes) -> PasscodeCheck)?
    }

    private struct State {
        var agentConnection: UInt64?
        var agentDescription = ""
        var agentWaiting: Reply?
        var nextID: UInt64 = 1
        /// Questions not yet handed to the agent, oldest first.
        var queued: [Question] = []
        /// Questions the agent has and has not answered yet, by prompt identifier.
        var open: [UInt64: Question] = [:]
    }

    private let state = Mutex(State())

    /// The agent's standing request from `connection`: answered with the next prompt, now if one waits.
    /// Refused while another agent of this user is connected.
    func agentAwaits(connection: UInt64, agent description: String, reply: @escaping Reply) {
        let action: () -> Void = state.withLock { state in
            if let current = state.agentConnection, current != connection {
                let holder = state.agentDescription
                return { reply(.keystoreError(.notPermitted(reason: "a prompt agent already runs for this user (\(holder))"))) }
            }
            state.agentConnection = connection
            state.agentDescription = description
            guard !state.queued.isEmpty else {
                let previous = state.agentWaiting
                state.agentWaiting = reply
                return { previous?(.keystoreError(.cancelled)) }
            }
            let question = state.queued.removeFirst()
            state.open[question.prompt.id] = question
            return { reply(.prompt(question.prompt)) }
        }
        action()
    }

    /// Whether `connection` is this user's prompt agent.
    func isAgent(_ connection: UInt64) -> Bool {
        state.withLock { $0.agentConnection == connection }
    }

    /// A program's request to unlock, or to confirm it is the person (`check` then judges the passcode):
    /// queued for the agent, or refused at once when no agent runs.
    func ask(
        _ purpose: Prompt.Purpose, requester: String, reason: String = "", connection: UInt64,
        check: (@Sendable (SecretBytes) -> PasscodeCheck)? = nil, reply: @escaping Reply
    ) {
        let action: () -> Void = state.withLock { state in
            guard state.agentConnection != nil else {
                return {
                    reply(
                        .keystoreError(
                            .unavailable(
                                reason: "no prompt agent runs for this user: start `coffer prompt-agent` in your session")))
                }
            }
            let question = Question(
                prompt: Prompt(id: state.nextID, purpose: purpose, requester: requester, reason: reason),
                requesterConnection: connection, reply: reply, check: check)
            state.nextID += 1
            guard let agent = state.agentWaiting else {
                state.queued.append(question)
                return {}
            }
            state.agentWaiting = nil
            state.open[question.prompt.id] = question
            return { agent(.prompt(question.prompt)) }
        }
        action()
    }

    /// What to do with the agent's answer to prompt `id`.
    enum Answer {
        /// The prompt is open: check the passcode, then call ``settle(_:with:)``.
        case check(Prompt)
        /// No such open prompt (the program went away, or another connection answered): the agent drops it.
        case unknown
    }

    /// Looks up the prompt an answer from `connection` is for; only the agent may answer.
    func answer(_ id: UInt64, from connection: UInt64) -> Answer {
        state.withLock { state in
            guard state.agentConnection == connection, let question = state.open[id] else { return .unknown }
            return .check(question.prompt)
        }
    }

    /// The agent's passcode for authentication prompt `id`, judged by the prompt's check: right ends the
    /// prompt with success; wrong counts, and the third wrong one ends it as failed; a refusal ends it.
    /// Returns the agent's answer (success, or the keystore's error so that it may ask again).
    func confirm(_ id: UInt64, passcode: SecretBytes) -> Response {
        guard let check = state.withLock({ $0.open[id]?.check }) else { return .keystoreError(.cancelled) }
        switch check(passcode) {
        case .right:
            settle(id, with: .status(.success))
            return .status(.success)
        case .wrong(let error):
            let failures = state.withLock { state -> Int in
                state.open[id]?.prompt.failedAttempts += 1
                return state.open[id]?.prompt.failedAttempts ?? 0
            }
            if failures >= AuthenticationQuestion.attempts {
                settle(
                    id,
                    with: .authenticationFailure(
                        AuthenticationFailure(
                            .authenticationFailed, reason: "\(failures) wrong passcodes at the prompt")))
            }
            return .keystoreError(error)
        case .refused(let error):
            settle(id, with: .authenticationFailure(AuthenticationFailure(.authenticationFailed, reason: error.description)))
            return .keystoreError(error)
        }
    }

    /// Ends prompt `id` with `response` for the program that asked (success, cancelled, throttled…).
    func settle(_ id: UInt64, with response: Response) {
        let question = state.withLock { $0.open.removeValue(forKey: id) }
        question?.reply(response)
    }

    /// Notes one more wrong passcode typed into prompt `id` (the agent shows the count when it asks again).
    func countFailure(_ id: UInt64) {
        state.withLock { state in state.open[id]?.prompt.failedAttempts += 1 }
    }

    /// A connection closed: an agent's questions are answered "unavailable"; a program's questions are withdrawn.
    func connectionClosed(_ connection: UInt64) {
        let replies: [Reply] = state.withLock { state in
            state.queued.removeAll { $0.requesterConnection == connection }
            for (id, question) in state.open where question.requesterConnection == connection {
                state.open[id] = nil
            }
            guard state.agentConnection == connection else { return [] }
            state.agentConnection = nil
            state.agentWaiting = nil
            let orphaned = state.queued + Array(state.open.values)
            state.queued = []
            state.open = [:]
            return orphaned.map(\.reply)
        }
        for reply in replies {
            reply(.keystoreError(.unavailable(reason: "the prompt agent stopped before the person answered")))
        }
    }
}
