import KeychainModel
import Foundation
import Keystore
import Synchronization

/// A clock the test moves by hand.
final class ManualClock: KeystoreClock {
    private let current: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex(start) }
    func now() -> Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// A fresh, empty keychain folder under the system temporary folder.
func makeTemporaryFolder(_ name: String = #function) -> KeychainFolder {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("coffer-tests-\(UUID().uuidString)", isDirectory: true)
        .appendingPathComponent("keychain", isDirectory: true)
    return KeychainFolder(url: url)
}

func secret(_ text: String) -> SecretBytes { SecretBytes(copying: Array(text.utf8)) }

/// Opens a keystore with a passcode already set (cheap KDF).
func keystoreWithPasscode(_ passcode: String = "1234", clock: ManualClock = ManualClock()) throws -> (Keystore, KeychainFolder) {
    let folder = makeTemporaryFolder()
    let keystore = try Keystore.open(folder: folder, clock: clock)
    try keystore.setPasscode(secret(passcode), kdf: .insecureForTesting)
    return (keystore, folder)
}
