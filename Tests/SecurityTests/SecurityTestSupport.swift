import CofferTestSupport
import Foundation
import KeychainModel
import Keystore
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
