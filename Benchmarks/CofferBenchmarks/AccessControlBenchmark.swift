import Foundation
import KeychainSelection
import KeychainModel
import KeychainOperations
import KeychainService
import Keystore
import Query

/// What access control costs a read (issue #13): a `userPresence` item read through a context evaluated
/// once, next to a plain read; and a fresh authentication with the passcode plus the read, next to the
/// passcode KDF alone. The person is played by a prompter that types the passcode at once, so what is
/// measured is the keychain's own work.
enum AccessControlBenchmark {
    /// Types the passcode as soon as it is asked.
    private struct InstantPerson: AuthenticationPrompter {
        let passcode: String
        func confirmPasscode(_ question: AuthenticationQuestion, reply: @escaping @Sendable (PasscodeConfirmation) -> Void) {
            reply(PasscodeAsking.confirm(question) { _ in .passcode(SecretBytes(copying: Array(passcode.utf8))) })
        }
    }

    static func run(in scratch: URL, size: Int, operations: Int) throws -> (rows: [ItemsBenchmark.Row], kdf: [Duration]) {
        let folder = KeychainFolder(url: scratch.appendingPathComponent("access-control-\(size)"))
        let caller = CallerContext(accessGroups: .unrestricted(defaultGroup: "bench"))
        // One calibration, used for the keychain's passcode and for the KDF measured alone.
        let kdf = PasscodeKDF.forNewPasscodes
        let passcode = SecretBytes(copying: Array("bench-passcode".utf8))
        try Keystore.open(folder: folder).setPasscode(passcode, kdf: kdf)
        let service = KeychainService(folder: folder, prompter: InstantPerson(passcode: "bench-passcode"))
        let keychain = EmbeddedKeychain(service: service, caller: caller)
        try keychain.sendBlocking(.unlock(passcode: passcode)).keystoreResult()
        try ItemsBenchmark.populate(keychain, count: size)
        var protected = ItemsBenchmark.item(size + 1)
        protected[QueryKey.accessControl] = .accessControl(AccessControl(protection: .whenUnlocked, flags: .userPresence))
        _ = try keychain.sendBlocking(.add(protected)).itemResult()
        _ = try keychain.sendBlocking(.add(ItemsBenchmark.item(size + 2))).itemResult()

        // The same item read again and again, as the protected one is below (the fair comparison).
        let samePlain = ItemsBenchmark.findQuery(size + 2, returning: "r_Data")
        let plain = try ItemsBenchmark.timed(operations) {
            _ = try keychain.sendBlocking(.copyMatching(samePlain)).itemResult()
        }

        let context = AuthenticationContextID.random()
        try keychain.sendBlocking(
            .authenticate(
                AuthenticationRequest(
                    context: context, requirement: AuthenticationRequirement(factors: [.presence]), reason: "benchmark",
                    reuseDuration: .seconds(300)))
        ).authenticationResult()
        var withContext = ItemsBenchmark.findQuery(size + 1, returning: "r_Data")
        withContext[QueryKey.useAuthenticationContext] = AuthenticationContextReference(context: context).keychainValue
        let reused = try ItemsBenchmark.timed(operations) {
            _ = try keychain.sendBlocking(.copyMatching(withContext)).itemResult()
        }

        let rounds = max(operations / 100, 10)
        let prompted = try ItemsBenchmark.timed(rounds) {
            _ = try keychain.sendBlocking(.copyMatching(ItemsBenchmark.findQuery(size + 1, returning: "r_Data"))).itemResult()
        }
        let salt = Data(repeating: 7, count: 16)
        let stretch = try ItemsBenchmark.timed(rounds) { _ = try kdf.stretch(passcode, salt: salt) }
        try? FileManager.default.removeItem(at: folder.url)
        return (
            [
                .init(size: size, operation: "find (data), one item without access control, again and again", samples: plain),
                .init(size: size, operation: "find (data), one `userPresence` item, again and again through a context evaluated once", samples: reused),
                .init(size: size, operation: "find (data), a `userPresence` item, the passcode typed for it", samples: prompted),
                .init(size: size, operation: "the passcode KDF alone (scrypt, as calibrated here)", samples: stretch),
            ], stretch
        )
    }
}
