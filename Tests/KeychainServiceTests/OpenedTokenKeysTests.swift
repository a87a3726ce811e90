import Crypto
import Foundation
import KeyCrypto
import KeychainModel
import KeychainOperations
@testable import KeychainService
import Keystore
import Query
import Testing

/// A key that never leaves is opened from its seal once and kept while its class keys are in memory:
/// every lock forgets it, so a locked class's key is never used, and it is opened again after unlocking.
@Suite("Token keys kept open between uses", .timeLimit(.minutes(10)))
struct OpenedTokenKeysTests {
    private static let caller = CallerContext(accessGroups: .unrestricted(defaultGroup: "test"))
    private static let message = Data("challenge".utf8)

    private static func secret(_ text: String) -> SecretBytes { SecretBytes(copying: Array(text.utf8)) }

    /// A keychain with passcode 1234, unlocked, and a service over it.
    private static func unlockedService() throws -> (KeychainService, URL) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-opened-\(UUID().uuidString)")
        try Keystore.open(folder: KeychainFolder(url: url)).setPasscode(secret("1234"), kdf: .insecureForTesting)
        let service = KeychainService(folder: KeychainFolder(url: url))
        #expect(service.handle(.unlock(passcode: secret("1234")), caller: caller) == .status(.success))
        return (service, url)
    }

    private static func tokenKey(_ service: KeychainService, _ protection: ProtectionClass) throws -> TokenKey {
        let creation = TokenKeyCreation(accessControl: AccessControl(protection: protection, flags: .privateKeyUsage), sizeInBits: 256)
        guard case .tokenKey(let key) = service.handle(.createTokenKey(creation), caller: caller) else {
            throw KeychainStatus.internal
        }
        return key
    }

    /// Signs ``message`` with `key` and checks the signature with swift-crypto; the response otherwise.
    private static func signs(_ service: KeychainService, _ key: TokenKey) throws -> Response? {
        let use = TokenKeyUse(key: key.sealed, operation: .sign, algorithm: "algid:sign:ECDSA:message-X962:SHA256", input: message)
        let response = service.handle(.useTokenKey(use), caller: caller)
        guard case .value(.data(let signature)?) = response else { return response }
        let publicKey = try P256.Signing.PublicKey(x963Representation: key.publicKey)
        #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: message))
        return nil
    }

    @Test func aKeyUsedAgainIsOpenedOnceAndEveryLockForgetsIt() throws {
        let (service, url) = try Self.unlockedService()
        defer { try? FileManager.default.removeItem(at: url) }
        let key = try Self.tokenKey(service, .whenUnlocked)
        #expect(service.openedTokenKeys.count == 0)
        for _ in 0..<3 { #expect(try Self.signs(service, key) == nil) }
        #expect(service.openedTokenKeys.count == 1)

        #expect(service.handle(.lock, caller: Self.caller) == .status(.success))
        #expect(service.openedTokenKeys.count == 0)
        #expect(try Self.signs(service, key) == .failure(.interactionNotAllowed, reason: "the key's protection class is locked"))
        #expect(service.openedTokenKeys.count == 0)

        #expect(service.handle(.unlock(passcode: Self.secret("1234")), caller: Self.caller) == .status(.success))
        #expect(try Self.signs(service, key) == nil)
        #expect(service.openedTokenKeys.count == 1)
    }

    @Test func anAfterFirstUnlockKeyIsOpenedAgainAfterALockAndStillSigns() throws {
        let (service, url) = try Self.unlockedService()
        defer { try? FileManager.default.removeItem(at: url) }
        let key = try Self.tokenKey(service, .afterFirstUnlock)
        #expect(try Self.signs(service, key) == nil)
        #expect(service.handle(.lock, caller: Self.caller) == .status(.success))
        #expect(service.openedTokenKeys.count == 0)
        #expect(try Self.signs(service, key) == nil)
        #expect(service.openedTokenKeys.count == 1)
    }

    @Test func anAlteredSealIsRefusedAndNotKept() throws {
        let (service, url) = try Self.unlockedService()
        defer { try? FileManager.default.removeItem(at: url) }
        let key = try Self.tokenKey(service, .whenUnlocked)
        var sealed = key.sealed
        sealed[sealed.index(before: sealed.endIndex)] ^= 0x01
        let altered = TokenKey(sealed: sealed, publicKey: key.publicKey, accessControl: key.accessControl)
        #expect(try Self.signs(service, altered) == .failure(.authFailed, reason: "the key was not made by this keychain, or it was altered"))
        #expect(service.openedTokenKeys.count == 0)
    }

    @Test func theTableStartsOverWhenFull() throws {
        let table = OpenedTokenKeys()
        let opened = OpenedTokenKeys.Opened(
            key: .classic(try AsymmetricKey.generate(type: .ellipticCurve, sizeInBits: 256)), kind: .p256,
            accessControl: AccessControl(protection: .whenUnlocked, flags: .privateKeyUsage))
        for index in 0..<OpenedTokenKeys.capacity { table.keep(opened, sealed: Data([UInt8(index)])) }
        #expect(table.count == OpenedTokenKeys.capacity)
        table.keep(opened, sealed: Data([0xFF, 0xFF]))
        #expect(table.count == 1)
    }
}
