import CofferTestSupport
import CryptoKit
import Foundation
import KeychainKeys
import KeychainModel
import KeychainOperations
import KeychainSelection
import Keystore
import Query
import Testing
@_spi(Testing) import Security

/// A fresh keychain folder, removed afterwards; with `passcode`, the keychain gets that passcode (cheap KDF)
/// before the `Security` module (or the daemon, with `transport: .daemon`) first opens it, so it starts
/// before first unlock.
func withFreshKeychain<Result>(
    passcode: String? = nil, transport: Transport = .embedded, _ body: () throws -> Result
) throws -> Result {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("coffer-security-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    if let passcode {
        try Keystore.open(folder: KeychainFolder(url: folder))
            .setPasscode(SecretBytes(copying: Array(passcode.utf8)), kdf: .insecureForTesting)
    }
    return try withKeychain(at: folder, transport: transport, body)
}

/// Runs `body` with Apple's calls reaching the keychain in `folder` over `transport` (the folder is kept after).
func withKeychain<Result>(at folder: URL, transport: Transport, _ body: () throws -> Result) throws -> Result {
    switch transport {
    case .embedded:
        return try SecurityTesting.withKeychain(at: folder, body)
    case .daemon:
        let daemon = try InProcessDaemon(folder: KeychainFolder(url: folder), groups: nil)
        return try withExtendedLifetime(daemon) { try SecurityTesting.withKeychain(socket: daemon.socketPath, body) }
    }
}

/// The `async` form of ``withFreshKeychain(passcode:_:)`` (no passcode).
func withFreshKeychain<Result>(_ body: () async throws -> Result) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("coffer-security-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await SecurityTesting.withKeychain(at: folder, body)
}

/// `SecKeychainUnlock` with a string passcode, as client code calls it.
func unlock(_ passcode: String) -> OSStatus {
    SecKeychainUnlock(nil, UInt32(passcode.utf8.count), passcode, true)
}

/// `SecKeychainGetStatus`'s value.
func keychainStatus() -> SecKeychainStatus? {
    var status: SecKeychainStatus = 0
    return SecKeychainGetStatus(nil, &status) == errSecSuccess ? status : nil
}

/// A generic password in `service`/`account` with the given protection class.
func password(_ account: String, accessible: CFString = kSecAttrAccessibleWhenUnlocked, data: String = "pw") -> [String: Any] {
    [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "lock",
        kSecAttrAccount as String: account, kSecValueData as String: Data(data.utf8),
        kSecAttrAccessible as String: accessible,
    ]
}

/// A search for the generic password `account`, plus `extra`.
func search(_ account: String, _ extra: [String: Any] = [:]) -> [String: Any] {
    var query: [String: Any] = [
        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "lock", kSecAttrAccount as String: account,
    ]
    query.merge(extra) { _, new in new }
    return query
}

/// What a kept key's seal holds, opened with the keystore as only the keychain can: for the tests that then look for it
/// in the keychain's files.
func openTokenKeySeal(_ sealed: Data, keystore: Keystore) throws -> Data {
    let layout = try #require(TokenKeySealLayout(parsing: sealed))
    let part = [UInt8](layout.sealedPart)
    let wrappedLength = Int(part[0])
    let dataKey = try keystore.unwrapItemKey(Data(part[1..<1 + wrappedLength]), protection: layout.accessControl.protection)
    let nonceStart = 1 + wrappedLength
    let box = try AES.GCM.SealedBox(
        nonce: AES.GCM.Nonce(data: part[nonceStart..<nonceStart + 12]), ciphertext: part[(nonceStart + 12)..<(part.count - 16)],
        tag: part[(part.count - 16)...])
    return try AES.GCM.open(box, using: dataKey, authenticating: layout.header)
}

/// Makes a post-quantum key inside the current keychain and stores it as a key item under `tag`, as Coffer's Swift API
/// and `coffer create-key -t ml-dsa-65` store one.
@discardableResult
func storePostQuantumKeyItem(_ kind: TokenKeyCreation.Kind, tag: Data) throws -> KeptPostQuantumKey {
    let client = SharedKeychainClient.current
    let key = try KeptPostQuantumKey.generate(
        kind, accessControl: AccessControl(protection: .afterFirstUnlockThisDeviceOnly, flags: []), tiedToItem: true, through: client)
    var attributes = QueryDictionary()
    attributes[QueryKey.isPermanent] = .bool(true)
    attributes[QueryKey.applicationTag] = .data(tag)
    _ = try client.sendBlocking(.add(KeyItem.addDictionary(storing: key.itemReference, attributes: attributes))).itemResult()
    return key
}
