// A process the crash tests start and kill with SIGKILL at random moments. Not installed.
//
//   CofferTestHelper keybag-churn FOLDER   change the passcode between "aaaa" and "bbbb" forever
import Foundation
import Keystore

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: CofferTestHelper keybag-churn FOLDER\n".utf8))
    exit(2)
}

/// A clock far in the future on every call, so throttle delays never block the churn.
struct FarFutureClock: KeystoreClock {
    func now() -> Date { Date().addingTimeInterval(Double(UInt32.random(in: 0...1_000_000)) * 3600) }
}

switch arguments[1] {
case "keybag-churn":
    let folder = KeychainFolder(url: URL(fileURLWithPath: arguments[2]))
    let passcodes = [SecretBytes(copying: Array("aaaa".utf8)), SecretBytes(copying: Array("bbbb".utf8))]
    do {
        let keystore = try Keystore.open(folder: folder, clock: FarFutureClock())
        var current = 0
        if (try? keystore.unlock(passcode: passcodes[0])) == nil { current = 1 }
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        while true {
            do {
                try keystore.changePasscode(from: passcodes[current], to: passcodes[1 - current], kdf: .insecureForTesting)
                current = 1 - current
            } catch KeystoreError.wrongPasscode {
                current = 1 - current
            }
        }
    } catch {
        FileHandle.standardError.write(Data("keybag-churn: \(error)\n".utf8))
        exit(1)
    }
default:
    FileHandle.standardError.write(Data("unknown mode \(arguments[1])\n".utf8))
    exit(2)
}
