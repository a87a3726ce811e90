// A process the crash and concurrency tests start (and kill with SIGKILL). Not installed.
//
//   CofferTestHelper keybag-churn FOLDER          change the passcode between "aaaa" and "bbbb" forever
//   CofferTestHelper item-writer FOLDER RUN       add items RUN-0, RUN-1, … forever; print each index once acknowledged
//   CofferTestHelper mixed-ops FOLDER WORKER N    N rounds of add/find/update/delete on the worker's own items
//   CofferTestHelper daemon-client SOCKET add|find ACCOUNT [GROUP]
//                                                 one call through cofferd; prints the OSStatus (and the value found)
//   CofferTestHelper wait-then-client SOCKET …    prints "ready PID", waits for a line, then as daemon-client
//   CofferTestHelper exec-race SOCKET REGISTERED ACCOUNT COUNT
//                                                 connect, fork a reader sharing the socket, exec REGISTERED; COUNT times
//   CofferTestHelper linger FOLDER MS             stays alive MS milliseconds
//   CofferTestHelper connect-and-wait SOCKET      connects and holds the connection until stdin closes
import Foundation
import KeychainSelection
import KeychainModel
import Keystore
import Query

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: CofferTestHelper MODE FOLDER …\n".utf8))
    exit(2)
}
let folder = KeychainFolder(url: URL(fileURLWithPath: arguments[2]))

/// A clock far in the future on every call, so throttle delays never block the churn.
struct FarFutureClock: KeystoreClock {
    func now() -> Date { Date().addingTimeInterval(Double(UInt32.random(in: 0...1_000_000)) * 3600) }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("\(arguments[1]): \(message)\n".utf8))
    exit(1)
}

func keybagChurn() -> Never {
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
        fail("\(error)")
    }
}

func itemWriter(run: String) -> Never {
    let keychain = EmbeddedKeychain(folder: folder, caller: .init(accessGroups: .unrestricted(defaultGroup: "test")))
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    var index = 0
    while true {
        let query: QueryDictionary = [
            "class": "genp", "svce": .string(run), "acct": .string("\(index)"), "v_Data": .data(Data("value-\(run)-\(index)".utf8)),
        ]
        do {
            _ = try keychain.blocking.add(query)
        } catch {
            fail("add \(index): \(error)")
        }
        FileHandle.standardOutput.write(Data("\(index)\n".utf8))
        index += 1
    }
}

func mixedOperations(worker: String, rounds: Int) -> Never {
    let keychain = EmbeddedKeychain(folder: folder, caller: .init(accessGroups: .unrestricted(defaultGroup: "test")))
    do {
        for round in 0..<rounds {
            let item: QueryDictionary = ["class": "genp", "svce": .string("mixed-\(worker)"), "acct": .string("\(round)")]
            var add = item
            add.entries["v_Data"] = .data(Data("v\(round)".utf8))
            _ = try keychain.blocking.add(add)
            var find = item
            find.entries["r_Data"] = true
            guard case .data(let value)? = try keychain.blocking.copyMatching(find), value == Data("v\(round)".utf8) else {
                fail("round \(round): wrong value read back")
            }
            try keychain.blocking.update(item, attributesToUpdate: ["v_Data": .data(Data("w\(round)".utf8))])
            if round % 2 == 0 { try keychain.blocking.delete(item) }
            _ = try? keychain.blocking.copyMatching(["class": "genp", "svce": "shared", "m_Limit": "m_LimitAll", "r_Attributes": true])
        }
    } catch {
        fail("unexpected status \(error)")
    }
    exit(0)
}

func daemonClient() -> Never {
    guard arguments.count >= 5 else { fail("daemon-client SOCKET add|find|unlock|lock|unlock-prompt ACCOUNT [GROUP]") }
    let client = DaemonKeychain(socketPath: arguments[2])
    if ["unlock", "lock", "unlock-prompt"].contains(arguments[3]) { keystoreCall(client, arguments[3]) }
    var query: QueryDictionary = ["class": "genp", "svce": "multi-user", "acct": .string(arguments[4])]
    if arguments.count >= 6 { query.entries["agrp"] = .string(arguments[5]) }
    do {
        switch arguments[3] {
        case "add":
            query.entries["v_Data"] = .data(Data("secret-\(arguments[4])".utf8))
            _ = try client.blocking.add(query)
            print("0")
        case "find":
            query.entries["r_Data"] = true
            guard case .data(let value)? = try client.blocking.copyMatching(query) else { fail("no data") }
            print("0 \(String(decoding: value, as: UTF8.self))")
        default:
            fail("unknown operation")
        }
    } catch {
        print("\(error.status.code)")
    }
    exit(0)
}

/// A program's keystore call through the daemon (the passcode, for unlock, on standard input); prints the status.
func keystoreCall(_ client: DaemonKeychain, _ operation: String) -> Never {
    do throws(KeystoreError) {
        switch operation {
        case "unlock":
            let line = readLine(strippingNewline: true) ?? ""
            try client.blocking.unlock(passcode: SecretBytes(copying: Array(line.utf8)))
        case "lock": try client.blocking.lock()
        default: try client.blocking.unlockWithPrompt()
        }
        print("0")
    } catch {
        print("\(error.status.code)")
    }
    exit(0)
}

switch arguments[1] {
case "keybag-churn": keybagChurn()
case "item-writer" where arguments.count >= 4: itemWriter(run: arguments[3])
case "daemon-client": daemonClient()
case "wait-then-client": waitThenClient()
case "exec-race": execRace()
case "linger": linger()
case "connect-and-wait": connectAndWait()
case "mixed-ops" where arguments.count >= 5: mixedOperations(worker: arguments[3], rounds: Int(arguments[4]) ?? 10)
default: fail("unknown mode or missing arguments")
}
