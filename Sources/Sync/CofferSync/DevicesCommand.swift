import ArgumentParser
import Foundation
import KeychainOperations
import SyncClient

/// `coffer sync devices`: the account's trusted devices.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "devices", abstract: "List the devices the account trusts.")

    @Flag(help: "Print the result as JSON.") var json = false

    func run() async throws {
        let devices: [SyncDeviceSummary]
        if let daemon = try DaemonSync.client() {
            guard case .devices(let listed) = try await DaemonSync.account(daemon, .devices, reason: "Read your sync account's devices.") else {
                throw CommandFailure("cofferd answered without the devices")
            }
            devices = listed
        } else {
            let sync = try LocalKeychain.sync()
            try LocalKeychain.authenticate(sync, reason: "Unlock the keychain to read its sync account.")
            devices = try await sync.devices().map {
                SyncDeviceSummary(id: $0.id, name: $0.name, isThisDevice: $0.isThisDevice, isRecoveryKey: $0.isRecoveryKey)
            }
        }
        if json { return try printJSON(devices) }
        for device in devices {
            let marks = [device.isThisDevice ? "this device" : nil, device.isRecoveryKey ? "recovery key" : nil].compactMap { $0 }
            print("\(device.id.uuidString.lowercased())  \(device.name)\(marks.isEmpty ? "" : "  (\(marks.joined(separator: ", ")))")")
        }
    }
}

/// `coffer sync remove-device NAME`: removes a device and replaces the account key.
struct RemoveDeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-device",
        abstract: "Remove a device from the account: it reads nothing written after (the account key is replaced).")

    @Argument(help: "The device's name or id (`coffer sync devices`).") var device: String

    func run() async throws {
        if let daemon = try DaemonSync.client() {
            guard case .device(let removed) = try await DaemonSync.account(daemon, .removeDevice(device), reason: "Remove a device from your sync account.")
            else { throw CommandFailure("cofferd answered without the device") }
            return print("Removed \(removed.name) (\(removed.id.uuidString.lowercased())); the account key was replaced.")
        }
        let sync = try LocalKeychain.sync()
        try LocalKeychain.authenticate(sync, reason: "Remove a device from your sync account.", always: true)
        let removed = try await sync.removeDevice(device)
        LocalKeychain.record(.removed(device: "device \(removed.name) (\(removed.id))"), in: sync)
        print("Removed \(removed.name) (\(removed.id.uuidString.lowercased())); the account key was replaced.")
    }
}
