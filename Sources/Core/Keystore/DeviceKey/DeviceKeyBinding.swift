import TrustedPlatformModule

/// Where this keystore's device key came from, and so how the passcode is turned into a key.
enum DeviceKeyBinding: Sendable {
    /// `device.key`, a file.
    case file
    /// Unsealed by this TPM from this file; the passcode goes through the TPM's HMAC key.
    case tpm(any TPMDevice, TPMDeviceKeyFile)

    var isTPM: Bool {
        if case .tpm = self { return true }
        return false
    }
}
