import ArgumentParser
import Foundation
import SyncClient

/// `coffer sync approve CODE`: admits the device showing CODE into the account.
struct ApproveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "approve",
        abstract: "Approve the device that shows this pairing code (asks for the keychain passcode first).")

    @Argument(help: "The code `coffer sync join` shows on the new device.") var code: String

    func run() async throws {
        let code = try PairingCode(text: code)
        if let daemon = try DaemonSync.client() {
            guard
                case .device(let device) = try await DaemonSync.account(
                    daemon, .approve(code: code.text), reason: "Approve a new device into your sync account.")
            else { throw CommandFailure("cofferd answered the approval without the device") }
            return print("Approved \(device.name) (\(device.id.uuidString.lowercased())).")
        }
        let sync = try LocalKeychain.sync()
        try LocalKeychain.authenticate(sync, reason: "Approve a new device into your sync account.", always: true)
        let device = try await sync.approve(code: code)
        LocalKeychain.record(.approved(device: "device \(device.name) (\(device.id))"), in: sync)
        print("Approved \(device.name) (\(device.id.uuidString.lowercased())).")
    }
}
