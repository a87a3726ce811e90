import Foundation
import KeychainModel
import KeychainOperations
import KeychainSelection
import KeychainService
import Query
import Testing

/// §6.3 and §6.4: what a call gets for an item whose access control asks for the person, by
/// `kSecUseAuthenticationUI` and `LAContext`, with the person scripted at the prompt.
@Suite("Access control: authentication UI", .timeLimit(.minutes(10)))
struct AuthenticationUITests {
    private typealias K = ProtectedKeychain

    @Test func allowAsksThePersonAndTheRightPasscodeOpensTheItem() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        #expect(keychain.add("a", [.string(QueryKey.accessControl): K.control(.userPresence)]).itemStatus == 0)
        keychain.prompter.willAnswer(.passcode("1234"))
        let found = keychain.find("a", [.string(QueryKey.useOperationPrompt): "Read the token"])
        #expect(found.text == "secret")
        #expect(keychain.prompter.reasonsAsked == ["Read the token"])
        // Without a context, the proof served that one call: the next asks again.
        keychain.prompter.willAnswer(.passcode("1234"))
        #expect(keychain.find("a").text == "secret")
        #expect(keychain.prompter.reasonsAsked.count == 2)
    }

    @Test func cancellingThePromptIsUserCanceled() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.devicePasscode)])
        keychain.prompter.willAnswer(.cancel)
        #expect(keychain.find("a").itemStatus == -128)
    }

    @Test func threeWrongPasscodesAreAuthFailedAndCountAsUnlockAttempts() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.userPresence)])
        keychain.prompter.willAnswer(.passcode("0000"), .passcode("1111"), .passcode("2222"))
        #expect(keychain.find("a").itemStatus == -25293)
        #expect(try keychain.send(.lockStatus).lockStatusResult().failedAttempts == 3)
    }

    @Test func aWrongThenTheRightPasscodeOpensTheItem() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.userPresence)])
        keychain.prompter.willAnswer(.passcode("0000"), .passcode("1234"))
        #expect(keychain.find("a").text == "secret")
        #expect(try keychain.send(.lockStatus).lockStatusResult().failedAttempts == 0)
    }

    @Test(arguments: [
        ["u_AuthUI": "u_AuthUIF"] as [String: KeychainValue],
        ["u_NoAuthUI": true],
    ])
    func failIsInteractionNotAllowedEvenForAnExistenceCheck(_ setting: [String: KeychainValue]) throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.userPresence)])
        let extra = Dictionary(uniqueKeysWithValues: setting.map { (KeychainValue.string($0.key), $0.value) })
        #expect(keychain.find("a", extra).itemStatus == -25308)
        // Attributes only: the item is still touched, so the same -25308 (§6.3) — the "exists" answer apps rely on.
        var attributesOnly = extra
        attributesOnly[.string(QueryKey.returnData)] = false
        attributesOnly[.string(QueryKey.returnAttributes)] = true
        #expect(keychain.find("a", attributesOnly).itemStatus == -25308)
        #expect(keychain.prompter.reasonsAsked.isEmpty)
        // A missing item is still -25300.
        #expect(keychain.find("missing", extra).itemStatus == -25300)
    }

    @Test func aContextThatMayNotInteractIsInteractionNotAllowed() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.userPresence)])
        #expect(keychain.find("a", K.using(.random(), interactionNotAllowed: true)).itemStatus == -25308)
        #expect(keychain.prompter.reasonsAsked.isEmpty)
    }

    @Test func skipLeavesProtectedItemsOut() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        keychain.add("protected", [.string(QueryKey.accessControl): K.control(.userPresence)])
        #expect(keychain.find("protected", K.uiSkip).itemStatus == -25300)
        keychain.add("plain", data: "open")
        var all = K.uiSkip
        all[.string(QueryKey.matchLimit)] = .string(QueryConstant.matchLimitAll)
        all[.string(QueryKey.returnData)] = false
        all[.string(QueryKey.returnAttributes)] = true
        guard case .value(.array(let items)?) = keychain.find(nil, all) else { Issue.record("expected an array"); return }
        #expect(items.count == 1)
        guard case .dictionary(let attributes)? = items.first else { Issue.record("expected attributes"); return }
        #expect(attributes[QueryKey.account] == "plain")
        #expect(keychain.prompter.reasonsAsked.isEmpty)
    }

    @Test func noPrompterIsInteractionNotAllowedAtOnce() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.userPresence)])
        let unprompted = KeychainService(folder: KeychainFolder(url: keychain.folder))
        try unprompted.handle(.unlock(passcode: SecretBytes(copying: Array("1234".utf8))), caller: keychain.caller).keystoreResult()
        let query = QueryDictionary([
            .string(QueryKey.itemClass): .string(QueryConstant.classGenericPassword), .string(QueryKey.account): "a",
            .string(QueryKey.returnData): true,
        ])
        let answer = EmbeddedKeychain(service: unprompted, caller: keychain.caller).sendBlocking(.copyMatching(query))
        #expect(answer.itemStatus == -25308)
        guard case .failure(_, let reason) = answer else { Issue.record("expected a reason, got \(answer)"); return }
        #expect(reason.contains("nobody can be asked"))
    }

    @Test func deletingAProtectedItemNeedsNoAuthentication() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.userPresence)])
        let delete = QueryDictionary([
            .string(QueryKey.itemClass): .string(QueryConstant.classGenericPassword), .string(QueryKey.service): "acl",
        ])
        #expect(keychain.send(.delete(delete)) == .value(nil))
        #expect(keychain.prompter.reasonsAsked.isEmpty)
    }

    @Test func updatingAProtectedItemReadsItFirstSoItAsks() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.userPresence)])
        let query = QueryDictionary([
            .string(QueryKey.itemClass): .string(QueryConstant.classGenericPassword), .string(QueryKey.account): "a",
        ])
        let changes = QueryDictionary([.string(QueryKey.valueData): .data(Data("new".utf8))])
        // Nobody answers (the scripted person cancels).
        #expect(keychain.send(.update(query: query, attributesToUpdate: changes)).itemStatus == -128)
        var failQuery = query
        failQuery[QueryKey.useAuthenticationUI] = .string(QueryConstant.authenticationUIFail)
        #expect(keychain.send(.update(query: failQuery, attributesToUpdate: changes)).itemStatus == -25308)
        keychain.prompter.willAnswer(.passcode("1234"))
        #expect(keychain.send(.update(query: query, attributesToUpdate: changes)) == .value(nil))
        keychain.prompter.willAnswer(.passcode("1234"))
        #expect(keychain.find("a").text == "new")
    }

    @Test func addingAnItemWithAnAccessControlNeedsNoPrompt() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        for flags: AccessControlFlags in [.userPresence, .devicePasscode, .biometryAny, [.biometryAny, .or, .devicePasscode]] {
            #expect(keychain.add("\(flags.rawValue)", [.string(QueryKey.accessControl): K.control(flags)]).itemStatus == 0)
        }
        #expect(keychain.prompter.reasonsAsked.isEmpty)
    }
}
