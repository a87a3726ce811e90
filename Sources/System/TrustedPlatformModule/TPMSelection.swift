import Foundation

/// Which TPM a keychain uses: `COFFER_TPM`'s value, or the kernel's resource manager by default.
///
/// `COFFER_TPM` is unset (the kernel's `/dev/tpmrm0`, when this process may open it), `none` (no TPM: the device
/// key stays a file, as before), or a tpm2-tss TCTI configuration: `device:/dev/tpmrm0`,
/// `swtpm:host=127.0.0.1,port=2321`, `swtpm:path=/run/swtpm.sock`…
public enum TPMSelection: Sendable, Hashable, CustomStringConvertible {
    /// No TPM is used.
    case none
    /// The TPM `COFFER_TPM` names with this tpm2-tss TCTI configuration: a keychain made while it cannot be
    /// reached is refused rather than made without it.
    case tcti(String)
    /// The kernel's resource manager, found usable without being asked for: a keychain made while it fails is made
    /// without a TPM, and says so.
    case kernelDefault

    /// The kernel's resource manager, which shares the TPM between processes.
    public static let kernelResourceManager = "/dev/tpmrm0"

    /// The selection `environment` makes (`COFFER_TPM`); without it, the kernel's resource manager when this
    /// process can read and write it, else none.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> TPMSelection {
        if let value = environment["COFFER_TPM"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
            return value == "none" ? .none : .tcti(value)
        }
        guard access(kernelResourceManager, R_OK | W_OK) == 0 else { return .none }
        return .kernelDefault
    }

    /// The TCTI configuration to open, or nil for none.
    public var configuration: String? {
        switch self {
        case .none: nil
        case .tcti(let configuration): configuration
        case .kernelDefault: "device:\(Self.kernelResourceManager)"
        }
    }

    /// What people are told: `none` or the TCTI configuration.
    public var description: String { configuration ?? "none" }
}
