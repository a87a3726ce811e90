import KeychainModel
import KeychainOperations
import KeychainService

/// ``Request/proveOwnerWithPrompt(reason:)``: the person proves, at the prompt agent, that a connection of a
/// trusted front end acts for them. What they type is charged to the keybag's count, as at every prompt the
/// agent (itself started with the passcode) shows; the connection is the owner's once they typed it right.
struct OwnerProofPrompt {
    let keychain: UserKeychain

    /// Asks; `reply` is given the answer and whether the person was asked (not when there is no passcode to prove).
    func ask(reason: String, from origin: RequestOrigin, reply: @escaping @Sendable (Response, _ askedPerson: Bool) -> Void) {
        let keystore = keychain.engine.keystore
        let (owners, connection) = (keychain.owners, origin.connection)
        guard keystore.isPasscodeSet else {
            // Nothing to prove: without a passcode every caller is the owner.
            owners.record(connection)
            return reply(.status(.success), false)
        }
        keychain.prompts.ask(
            .authenticate, requester: origin.description, reason: reason, connection: connection,
            check: { passcode in
                do throws(KeystoreError) {
                    try keystore.proveOwner(passcode: passcode, charging: .keybag)
                    return .right
                } catch .wrongPasscode(let failed, let retryAfter) where retryAfter == .zero {
                    return .wrong(.wrongPasscode(failedAttempts: failed, retryAfter: retryAfter))
                } catch {
                    return .refused(error)
                }
            }
        ) { response in
            if response == .status(.success) { owners.record(connection) }
            reply(response, true)
        }
    }
}
