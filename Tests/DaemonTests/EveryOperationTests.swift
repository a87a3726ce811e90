import ProgramIdentity
import CofferTestSupport
import Foundation
import KeychainSelection
import KeychainModel
import KeychainOperations
import KeychainService
import Query
import Testing

/// Every request the seam knows, sent through both transports: the same handler answers both, so the
/// answers are the same, except that the program registry exists only in the daemon.
@Suite("Every operation, through both transports", .timeLimit(.minutes(10)))
struct EveryOperationTests {
    private static func secret(_ text: String) -> SecretBytes { SecretBytes(copying: Array(text.utf8)) }

    private static let item: QueryDictionary = ["class": "genp", "svce": "every-op", "acct": "me"]

    private static func with(_ query: QueryDictionary, _ extra: QueryDictionary) -> QueryDictionary {
        var merged = query
        for (key, value) in extra.entries { merged.entries[key] = value }
        return merged
    }

    private static let registration = AppRegistration(
        executablePath: "/usr/bin/true", applicationIdentifier: "TEAM.true", accessGroups: ["TEAM.shared"],
        pinsExecutableHash: false)

    /// The requests in an order in which each does something, with the answer each transport gives. A nil
    /// daemon answer marks a request that waits for a person there (the prompt agent's standing request):
    /// `PromptAgentTests` sends it through the daemon.
    private static let script: [(request: Request, embedded: Response, daemon: Response?)] = {
        let registered = RegisteredApp(
            executablePath: "/usr/bin/true", applicationIdentifier: "TEAM.true", accessGroups: ["TEAM.shared"],
            executableHash: nil)
        let noRegistry = Response.failure(.unimplemented, reason: "the program registry lives in the daemon (cofferd); this keychain is embedded")
        let noPrompts = Response.keystoreError(
            .unavailable(
                reason: "prompts come from the daemon's prompt agent (cofferd); this keychain is embedded, so pass the passcode"))
        let noAgent = Response.keystoreError(
            .unavailable(
                reason: "no prompt agent runs for this user: start `coffer prompt-agent` in your session"))
        let context = AuthenticationContextID.random()
        func same(_ request: Request, _ response: Response) -> (Request, Response, Response?) { (request, response, response) }
        return [
            same(.add(with(item, ["v_Data": .data(Data("one".utf8))])), .value(nil)),
            // A bulk add answers item by item: a duplicate, one added, a dictionary without a class.
            same(
                .addEach([
                    with(item, ["v_Data": .data(Data("again".utf8))]),
                    with(item, ["acct": "me-too", "v_Data": .data(Data("other".utf8))]),
                    ["svce": "every-op"],
                ]),
                .addOutcomes([.duplicateItem, .success, .param])),
            same(.delete(with(item, ["acct": "me-too"])), .value(nil)),
            same(.copyMatching(with(item, ["r_Data": true])), .value(.data(Data("one".utf8)))),
            same(.update(query: item, attributesToUpdate: ["v_Data": .data(Data("two".utf8))]), .value(nil)),
            same(.copyMatching(with(item, ["r_Data": true])), .value(.data(Data("two".utf8)))),
            same(
                .lockStatus,
                .lockStatus(
                    KeystoreStatus(
                        passcodeSet: false, lockState: .unlocked, failedAttempts: 0, retryAfter: .zero, eraseAfterFailedAttempts: false,
                        deviceKey: .file(whyNoTPM: DeviceKeyProtection.noTPMSelected)))),
            same(.setPasscode(new: secret("1234")), .status(.success)),
            same(.proveOwner(passcode: secret("0000")), .keystoreError(.wrongPasscode(failedAttempts: 1, retryAfter: .zero))),
            same(.proveOwner(passcode: secret("1234")), .status(.success)),
            same(.lock, .status(.success)),
            same(
                .authenticationCapabilities,
                .authenticationCapabilities(
                    AuthenticationCapabilities(
                        passcodeSet: true, biometry: SensorVerifier.fprintd()?.state() ?? .notAvailable(reason: "")))),
            same(.setCredential(context: context, applicationPassword: secret("app")), .status(.success)),
            same(
                .authenticate(
                    AuthenticationRequest(
                        context: context, requirement: AuthenticationRequirement(factors: [.passcode]), reason: "every-op", interactive: false)),
                .authenticationFailure(
                    AuthenticationFailure(
                        .notInteractive, reason: "authentication is needed and the context does not allow interaction (interactionNotAllowed)"))),
            same(.invalidateContext(context), .status(.success)),
            (.unlockWithPrompt, noPrompts, noAgent),
            (.proveOwnerWithPrompt(reason: "every-op"), noPrompts, noAgent),
            (.answerPrompt(id: 1, passcode: nil), noPrompts, .keystoreError(.cancelled)),
            (.awaitPrompt, noPrompts, nil),
            // Registry edits verify the passcode without unlocking: the keychain stays locked.
            (.appsList, noRegistry, .apps([])),
            (.appsAdd(registration, passcode: secret("1234")), noRegistry, .apps([registered])),
            (.appsRemove(.applicationIdentifier("TEAM.true"), passcode: secret("1234")), noRegistry, .apps([])),
            same(
                .copyMatching(with(item, ["r_Data": true])),
                .failure(.interactionNotAllowed, reason: "G16: a matching item's protection class (ak) is locked")),
            // File keys: class A's key is not usable while locked; a key no class key wrapped never unwraps.
            same(.makeFileKey(.complete), .keystoreError(.classUnavailable(.whenUnlocked))),
            same(.unwrapFileKey(WrappedFileKey(protection: .none, wrappedKey: Data(repeating: 1, count: 40))), .keystoreError(.wrappedKeyCorrupt)),
            same(.unlock(passcode: secret("0000")), .keystoreError(.wrongPasscode(failedAttempts: 1, retryAfter: .zero))),
            same(.unlock(passcode: secret("1234")), .status(.success)),
            // Backups: an export needs the passcode once one is set; a restore checks its records before writing.
            same(.exportBackup(BackupExport(passcode: nil)), .failure(.authFailed, reason: "the keychain has a passcode; exporting a backup needs it")),
            // The audit journal is read with the passcode once one is set.
            same(.auditRecords(AuditRead(passcode: nil)), .failure(.authFailed, reason: "the keychain has a passcode; reading its audit journal needs it")),
            same(.auditSetting(AuditSetting(passcode: secret("1234"), refuseUnrecordedReads: true)), .value(.bool(true))),
            same(.auditSetting(AuditSetting(passcode: secret("1234"))), .value(.bool(true))),
            same(
                .restoreBackup(BackupRestore(records: SecretBytes(copying: Array("CFBR".utf8) + [1, 0, 0, 0, 0]), policy: .keep)),
                .restoreReport(RestoreReport())),
            same(
                .restoreBackup(BackupRestore(records: secret("junk"), policy: .replace)),
                .failure(.decode, reason: "the backup file is damaged or was modified (the item list has no valid header)")),
            // A restore in parts: each part is kept for its caller until the restore naming its staging.
            same(
                .stageRestore(RestorePart(staging: RestoreStagingID(7), index: 0, records: SecretBytes(copying: Array("CFBR".utf8) + [1, 0, 0, 0, 0]))),
                .status(.success)),
            same(.restoreBackup(BackupRestore(staging: RestoreStagingID(7), policy: .keep)), .restoreReport(RestoreReport())),
            same(
                .createTokenKey(TokenKeyCreation(accessControl: AccessControl(protection: .whenUnlocked, flags: .privateKeyUsage), sizeInBits: 384)),
                .failure(
                    .param,
                    reason:
                        "a key that never leaves the keychain (kSecAttrTokenIDSecureEnclave) is a 256-bit kSecAttrKeyTypeECSECPrimeRandom (P-256) or kSecAttrKeyTypeEd25519 key; got 384 bits"
                )),
            same(
                .useTokenKey(TokenKeyUse(key: Data([1, 2, 3]), operation: .sign, algorithm: "algid:sign:ECDSA:message-X962:SHA256", input: Data())),
                .failure(.authFailed, reason: "the key was not made by this keychain, or it was altered")),
            // The device key is a file here (no TPM is selected): there is nothing to move back or show.
            same(.deviceKeyBinding(.unbindTPM(passcode: secret("1234"))), .keystoreError(.tpmUnavailable(reason: "this keychain is not bound to a TPM"))),
            same(.changePasscode(old: secret("1234"), new: secret("5678")), .status(.success)),
            same(.setEraseAfterFailedAttempts(true, passcode: secret("5678")), .status(.success)),
            same(.removePasscode(current: secret("5678")), .status(.success)),
            // Sync: this keychain has joined no account; the embedded keychain cannot run sync itself.
            same(.syncState(changedFrom: nil), .syncState(SyncState(isSyncing: false))),
            (
                .syncNow,
                .failure(
                    .unimplemented,
                    reason:
                        "an embedded keychain syncs when `coffer sync now` runs, or in the background through cofferd; this program cannot run sync itself"
                ),
                .failure(.notAvailable, reason: "this keychain does not sync: join an account with `coffer sync setup` or `coffer sync join`")
            ),
            (
                .syncAccount(.devices),
                .failure(
                    .unimplemented,
                    reason:
                        "an embedded keychain's sync account is managed by `coffer sync`, which opens the keychain itself; cofferd manages the account of a keychain it serves"
                ),
                .failure(.notAvailable, reason: "this keychain does not sync yet: run `coffer sync setup` or `coffer sync join` first")
            ),
            same(.delete(item), .value(nil)),
            same(.delete(item), .failure(.itemNotFound, reason: "D3: no item matches the query among the calling program's access groups")),
        ]
    }()

    @Test func theScriptCoversEveryKindOfRequest() {
        #expect(Set(Self.script.map(\.request.kind)) == Set(Request.Kind.allCases))
    }

    @Test(arguments: Transport.allCases)
    func everyRequestIsAnsweredAlike(transport: Transport) async throws {
        let folder = KeychainFolder(
            url: FileManager.default.temporaryDirectory
                .appendingPathComponent("coffer-every-op-\(UUID().uuidString)/keychain"))
        defer { try? FileManager.default.removeItem(at: folder.url.deletingLastPathComponent()) }
        let daemon = transport == .daemon ? try InProcessDaemon(folder: folder, groups: nil) : nil
        let client: any KeychainClient =
            switch transport {
            case .embedded: EmbeddedKeychain(folder: folder, caller: CallerContext(accessGroups: .unrestricted(defaultGroup: "test")))
            case .daemon: DaemonKeychain(socketPath: daemon!.socketPath)
            }
        for (index, step) in Self.script.enumerated() {
            guard let expected = transport == .embedded ? step.embedded : step.daemon else { continue }
            // Alternate the blocking and the async path, so both meet every kind of request.
            let answer = index % 2 == 0 ? client.sendBlocking(step.request) : await client.send(step.request)
            #expect(answer == expected, "step \(index): \(step.request.name)")
        }
        withExtendedLifetime(daemon) {}
    }
}
