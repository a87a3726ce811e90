import BackupFormat
import Foundation
import KeychainModel
import Synchronization

@testable import Keystore

/// A clock the test moves by hand.
final class ManualClock: KeystoreClock {
    private let current: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex(start) }
    func now() -> Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// A fresh keychain folder under the system temporary folder.
func temporaryFolder() -> KeychainFolder {
    KeychainFolder(
        url: FileManager.default.temporaryDirectory.appendingPathComponent("coffer-tpm-tests-\(UUID().uuidString)/keychain", isDirectory: true))
}

func secret(_ text: String) -> SecretBytes { SecretBytes(copying: Array(text.utf8)) }

/// A copy of `folder` elsewhere, as a stolen disk or a backup of the folder would be.
func copy(_ folder: KeychainFolder) throws -> KeychainFolder {
    let target = temporaryFolder()
    try FileManager.default.createDirectory(at: target.url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: folder.url, to: target.url)
    return target
}

extension Keystore {
    /// The printed recovery key parsed back.
    func takeRecoveryKey(passcode: String?) throws -> RecoveryKey {
        try RecoveryKey.parse(recoveryKey(renew: false, passcode: passcode.map(secret)))
    }
}
