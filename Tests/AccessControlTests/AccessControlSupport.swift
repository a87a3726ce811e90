import Foundation
import KeychainModel
import KeychainOperations
import KeychainSelection
import KeychainService
import Keystore
import Query
import Synchronization

/// A person at a prompt, scripted: each ask takes the next answer, and the questions asked are kept.
final class ScriptedPrompter: AuthenticationPrompter {
    enum Answer: Sendable {
        case passcode(String)
        case cancel
    }

    private let answers: Mutex<[Answer]>
    private let asked = Mutex<[String]>([])

    init(_ answers: [Answer] = []) { self.answers = Mutex(answers) }

    /// Adds answers for later prompts.
    func willAnswer(_ more: Answer...) { answers.withLock { $0 += more } }

    /// The reasons of the prompts shown so far, one per ask.
    var reasonsAsked: [String] { asked.withLock { $0 } }

    func confirmPasscode(_ question: AuthenticationQuestion, reply: @escaping @Sendable (PasscodeConfirmation) -> Void) {
        reply(
            PasscodeAsking.confirm(question) { _ in
                asked.withLock { $0.append(question.reason) }
                let next: Answer? = answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                switch next {
                case .passcode(let text)?: return .passcode(SecretBytes(copying: Array(text.utf8)))
                case .cancel?, nil: return .cancelled
                }
            })
    }
}

/// A fingerprint reader, scripted: its enrolled set and what the next touches give.
final class FakeBiometry: BiometricVerifier {
    private let current: Mutex<BiometryState>
    private let results: Mutex<[BiometricResult]>
    private let touches = Mutex(0)

    init(_ state: BiometryState = .available(domainState: Array(repeating: 1, count: 32)), results: [BiometricResult] = []) {
        current = Mutex(state)
        self.results = Mutex(results)
    }

    func enroll(_ state: BiometryState) { current.withLock { $0 = state } }
    func willRead(_ more: BiometricResult...) { results.withLock { $0 += more } }
    var touchCount: Int { touches.withLock { $0 } }

    func state() -> BiometryState { current.withLock { $0 } }

    func verify(reason: String) -> BiometricResult {
        touches.withLock { $0 += 1 }
        return results.withLock { $0.isEmpty ? .timedOut : $0.removeFirst() }
    }
}

/// A clock the tests move.
final class TestClock: Sendable {
    private let offset = Mutex(Duration.zero)
    private let start = ContinuousClock.now
    func advance(by duration: Duration) { offset.withLock { $0 += duration } }
    var now: ContinuousClock.Instant { start.advanced(by: offset.withLock { $0 }) }
}

/// A keychain in a fresh folder with passcode 1234 (cheap KDF), served in this process.
struct ProtectedKeychain {
    let folder: URL
    let service: KeychainService
    /// The client apps go through: it authenticates when an item needs it, and sends the call again.
    let client: EmbeddedKeychain
    let prompter: ScriptedPrompter
    let biometry: FakeBiometry
    let clock: TestClock
    let caller = CallerContext(accessGroups: .unrestricted(defaultGroup: "tests"))

    init(passcode: String? = "1234", biometry: FakeBiometry = FakeBiometry()) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-acl-\(UUID().uuidString)")
        let keychainFolder = KeychainFolder(url: folder)
        if let passcode {
            try Keystore.open(folder: keychainFolder).setPasscode(SecretBytes(copying: Array(passcode.utf8)), kdf: .insecureForTesting)
        }
        let clock = TestClock()
        prompter = ScriptedPrompter()
        self.biometry = biometry
        self.clock = clock
        service = KeychainService(folder: keychainFolder, prompter: prompter, biometry: biometry, now: { clock.now })
        client = EmbeddedKeychain(service: service, caller: caller)
        if let passcode {
            try service.handle(.unlock(passcode: SecretBytes(copying: Array(passcode.utf8))), caller: caller).keystoreResult()
        }
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    func send(_ request: Request) -> Response { client.sendBlocking(request) }

    /// An access control of `flags`, when-unlocked.
    static func control(_ flags: AccessControlFlags) -> KeychainValue {
        .accessControl(AccessControl(protection: .whenUnlocked, flags: flags))
    }

    /// Adds a generic password `account` of service "acl" with `data` and `extra` entries.
    @discardableResult
    func add(_ account: String, data: String = "secret", _ extra: [KeychainValue: KeychainValue] = [:]) -> Response {
        var query: [KeychainValue: KeychainValue] = [
            .string(QueryKey.itemClass): .string(QueryConstant.classGenericPassword), .string(QueryKey.service): "acl",
            .string(QueryKey.account): .string(account), .string(QueryKey.valueData): .data(Data(data.utf8)),
        ]
        query.merge(extra) { _, new in new }
        return send(.add(QueryDictionary(query)))
    }

    /// A search of service "acl" (and `account`), returning data unless `extra` says otherwise.
    func find(_ account: String? = nil, _ extra: [KeychainValue: KeychainValue] = [:]) -> Response {
        var query: [KeychainValue: KeychainValue] = [
            .string(QueryKey.itemClass): .string(QueryConstant.classGenericPassword), .string(QueryKey.service): "acl",
            .string(QueryKey.returnData): true,
        ]
        if let account { query[.string(QueryKey.account)] = .string(account) }
        query.merge(extra) { _, new in new }
        return send(.copyMatching(QueryDictionary(query)))
    }

    /// The `kSecUseAuthenticationContext` entry for `context`.
    static func using(_ context: AuthenticationContextID, interactionNotAllowed: Bool = false) -> [KeychainValue: KeychainValue] {
        [
            .string(QueryKey.useAuthenticationContext): AuthenticationContextReference(context: context, interactionNotAllowed: interactionNotAllowed)
                .keychainValue
        ]
    }

    static let uiFail: [KeychainValue: KeychainValue] = [.string(QueryKey.useAuthenticationUI): .string(QueryConstant.authenticationUIFail)]
    static let uiSkip: [KeychainValue: KeychainValue] = [.string(QueryKey.useAuthenticationUI): .string(QueryConstant.authenticationUISkip)]
}

extension Response {
    /// The status of an item answer (0 for a value).
    var itemStatus: Int32 {
        switch self {
        case .value: 0
        case .status(let status), .failure(let status, _): status.code
        default: -1
        }
    }

    /// The data of a value answer, as text.
    var text: String? {
        guard case .value(.data(let bytes)?) = self else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
