import Foundation
import KeychainModel
import KeychainOperations
import Query
import Testing

/// `kSecAccessControlApplicationPassword`: the secret is sealed a second time under scrypt of the
/// application password the context carries (`LAContext.setCredential`).
@Suite("Access control: application password", .timeLimit(.minutes(10)))
struct ApplicationPasswordTests {
    private typealias K = ProtectedKeychain

    private static func password(_ text: String) -> SecretBytes { SecretBytes(copying: Array(text.utf8)) }

    @Test func theRightPasswordOpensTheItemAndAWrongOneIsAuthFailed() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        let writer = AuthenticationContextID.random()
        #expect(keychain.send(.setCredential(context: writer, applicationPassword: Self.password("app pw"))) == .status(.success))
        var add = K.using(writer)
        add[.string(QueryKey.accessControl)] = K.control(.applicationPassword)
        #expect(keychain.add("a", data: "sealed", add).itemStatus == 0)
        #expect(keychain.find("a", K.using(writer)).text == "sealed")

        let wrong = AuthenticationContextID.random()
        _ = keychain.send(.setCredential(context: wrong, applicationPassword: Self.password("guess")))
        #expect(keychain.find("a", K.using(wrong)).itemStatus == -25293)
        // No password at all: -25293, or -25308 when the call may not prompt.
        #expect(keychain.find("a").itemStatus == -25293)
        #expect(keychain.find("a", K.uiFail).itemStatus == -25308)
        // Attributes alone need no password: the application password is not a constraint.
        #expect(keychain.find("a", [.string(QueryKey.returnData): false, .string(QueryKey.returnAttributes): true]).itemStatus == 0)
        #expect(keychain.prompter.reasonsAsked.isEmpty)
    }

    @Test func theSecretIsNotInTheDatabaseWithoutThePassword() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        let context = AuthenticationContextID.random()
        _ = keychain.send(.setCredential(context: context, applicationPassword: Self.password("pw")))
        var add = K.using(context)
        add[.string(QueryKey.accessControl)] = K.control(.applicationPassword)
        keychain.add("a", data: "marker-7f3a", add)
        // Removing the credential leaves nothing that opens it.
        _ = keychain.send(.setCredential(context: context, applicationPassword: nil))
        #expect(keychain.find("a", K.using(context)).itemStatus == -25293)
    }

    @Test func addingWithoutAPasswordIsRefused() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        #expect(keychain.add("a", [.string(QueryKey.accessControl): K.control(.applicationPassword)]).itemStatus == -25293)
        var fail = K.uiFail
        fail[.string(QueryKey.accessControl)] = K.control(.applicationPassword)
        #expect(keychain.add("b", fail).itemStatus == -25308)
    }

    @Test func withUserPresenceBothAreNeeded() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        let context = AuthenticationContextID.random()
        _ = keychain.send(.setCredential(context: context, applicationPassword: Self.password("pw")))
        var add = K.using(context)
        add[.string(QueryKey.accessControl)] = K.control([.userPresence, .applicationPassword])
        #expect(keychain.add("a", add).itemStatus == 0)
        keychain.prompter.willAnswer(.passcode("1234"))
        #expect(keychain.find("a", K.using(context)).text == "secret")
        #expect(keychain.prompter.reasonsAsked.count == 1)
    }
}
