import Foundation
import KeychainModel

/// What ``Request/syncAccount(_:)`` asks of a keychain's sync account: the steps of `coffer sync setup`, `join`,
/// `approve`, `devices`, `remove-device` and `leave`, for a keychain served by cofferd. Connection URIs are libpq's,
/// without a password; the account's password and the recovery key travel as ``SecretBytes``.
public enum SyncAccountRequest: Sendable, Equatable {
    /// Founds an account on `server` with this keychain as its first device: answered with the recovery key.
    case setUp(server: String, password: SecretBytes, deviceName: String)
    /// Joins the account `recoveryKey` belongs to.
    case join(server: String, password: SecretBytes, deviceName: String, recoveryKey: SecretBytes)
    /// Asks to join the account on `server`: answered with the pairing code to approve on a trusted device, while the
    /// keychain waits for the approval (``awaitJoin``).
    case requestToJoin(server: String, password: SecretBytes, deviceName: String)
    /// Waits for the approval of the last ``requestToJoin(server:password:deviceName:)`` (ten minutes at most).
    case awaitJoin
    /// Approves the device that shows `code`: answered with it.
    case approve(code: String)
    /// The account's trusted devices.
    case devices
    /// Removes a device (by name or id) and replaces the account key: answered with the device.
    case removeDevice(String)
    /// Stops syncing this keychain; its items stay.
    case leave
}

/// What a ``SyncAccountRequest`` came to.
public enum SyncAccountAnswer: Sendable, Equatable {
    /// Done.
    case done
    /// The account's recovery key, shown once.
    case recoveryKey(SecretBytes)
    /// The pairing code to approve on a trusted device.
    case pairingCode(String)
    /// The device approved or removed.
    case device(SyncDeviceSummary)
    /// The account's devices.
    case devices([SyncDeviceSummary])
}

/// A device of a sync account, as people see it.
public struct SyncDeviceSummary: Sendable, Equatable, Codable {
    /// Its id.
    public var id: UUID
    /// Its name.
    public var name: String
    /// Whether it is the keychain that answered.
    public var isThisDevice: Bool
    /// Whether it is the account's recovery key rather than a machine.
    public var isRecoveryKey: Bool

    /// A device.
    public init(id: UUID, name: String, isThisDevice: Bool, isRecoveryKey: Bool) {
        self.id = id
        self.name = name
        self.isThisDevice = isThisDevice
        self.isRecoveryKey = isRecoveryKey
    }
}
