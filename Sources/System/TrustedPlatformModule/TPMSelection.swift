import Foundation

/// Which TPM a keychain uses: `COFFER_TPM`'s value, or by default the kernel's resource manager, else the system
/// cofferd's TPM service.
///
/// `COFFER_TPM` is unset (the default below), `none` (no TPM: the device key stays a file, as before),
/// `cofferd:PATH` (the TPM service of the system cofferd listening at PATH), or a tpm2-tss TCTI configuration:
/// `device:/dev/tpmrm0`, `swtpm:host=127.0.0.1,port=2321`, `swtpm:path=/run/swtpm.sock`…
///
/// Unset, a process that may read and write `/dev/tpmrm0` (root, group `tss`) uses it; one that may not uses the
/// system cofferd's service when its socket exists (``systemServicePath``); otherwise none.
public enum TPMSelection: Sendable, Hashable, CustomStringConvertible {
    /// No TPM is used.
    case none
    /// The TPM `COFFER_TPM` names (a TCTI configuration or `cofferd:PATH`): a keychain made while it cannot be
    /// reached is refused rather than made without it.
    case tcti(String)
    /// The kernel's resource manager, found usable without being asked for: a keychain made while it fails is made
    /// without a TPM, and says so.
    case kernelDefault
    /// The system cofferd's TPM service, whose socket was found without being asked for: as ``kernelDefault``, a
    /// keychain made while it fails is made without a TPM.
    case systemServiceDefault

    /// The kernel's resource manager, which shares the TPM between processes.
    public static let kernelResourceManager = "/dev/tpmrm0"
    /// Where the system cofferd serves the TPM to users who may not open it.
    public static let systemServicePath = "/run/coffer/tpm.socket"

    /// The selection `environment` makes (`COFFER_TPM`); without it, the kernel's resource manager when this
    /// process can read and write it, else the system cofferd's service when its socket exists, else none.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> TPMSelection {
        if let value = environment["COFFER_TPM"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
            return value == "none" ? .none : .tcti(value)
        }
        if access(kernelResourceManager, R_OK | W_OK) == 0 { return .kernelDefault }
        var status = stat()
        if stat(systemServicePath, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK { return .systemServiceDefault }
        return .none
    }

    /// The configuration to open (a TCTI or `cofferd:PATH`), or nil for none.
    public var configuration: String? {
        switch self {
        case .none: nil
        case .tcti(let configuration): configuration
        case .kernelDefault: "device:\(Self.kernelResourceManager)"
        case .systemServiceDefault: "\(TPMServiceClient.scheme)\(Self.systemServicePath)"
        }
    }

    /// Whether this TPM was found rather than named: a new keychain falls back to a device key file when it fails.
    public var isDefault: Bool {
        switch self {
        case .kernelDefault, .systemServiceDefault: true
        case .none, .tcti: false
        }
    }

    /// What people are told: `none` or the configuration.
    public var description: String { configuration ?? "none" }

    /// Opens `configuration`: cofferd's TPM service for `cofferd:PATH`, else the TPM that TCTI reaches.
    public static func open(_ configuration: String) throws(TPMError) -> any TPMDevice {
        if configuration.hasPrefix(TPMServiceClient.scheme) {
            return try TPMServiceClient(path: String(configuration.dropFirst(TPMServiceClient.scheme.count)))
        }
        return try PlatformTPM(tcti: configuration)
    }
}
