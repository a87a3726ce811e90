import KeychainModel
import ProgramIdentity

/// The provider's settings, the owner's to choose: read from a root-owned file (``systemPath``), never from the
/// environment of whoever starts the provider. Any program of the user can start a provider of its own (on a
/// private bus, say); were isolation its starter's to turn off, that program would read every other program's items.
public struct SecretServiceSettings: Sendable, Equatable {
    /// Where the owner sets them: `isolation = shared` gives gnome-keyring's behaviour to every user of the machine.
    public static let systemPath = "/etc/coffer/secret-service.conf"
    /// The environment variable earlier versions read isolation from; now only noticed, never obeyed.
    public static let retiredVariable = "COFFER_SECRET_SERVICE_ISOLATION"

    /// Whether programs are kept apart.
    public var isolation: SecretServiceIsolation
    /// What the provider says on standard error at start: a file it did not trust, a setting it did not obey.
    public var notices: [String]

    /// A setting the owner's file names with a value the provider does not know.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The settings in the file at `path` if the owner alone could have written it (``OwnerSettingsFile``), else
    /// the defaults (per-program isolation), with a notice of why; `environment` is looked at only to say that
    /// ``retiredVariable`` is not obeyed.
    public static func load(from path: String = systemPath, environment: [String: String]) throws(Invalid) -> SecretServiceSettings {
        var settings = SecretServiceSettings(isolation: .perProgram, notices: [])
        if let asked = environment[retiredVariable] {
            settings.notices.append(
                "\(retiredVariable)=\(ControlCharacterEscaping.escaped(asked)) is not obeyed: isolation is the owner's setting, "
                    + "`isolation = shared` in \(systemPath) (root's file)")
        }
        switch OwnerSettingsFile.read(path) {
        case .absent:
            break
        case .untrusted(let reason):
            settings.notices.append("\(reason): its settings are not read; programs are kept apart")
        case .settings(let values):
            if let value = values["isolation"] {
                guard let isolation = SecretServiceIsolation(setting: value) else {
                    let accepted = SecretServiceIsolation.allCases.map(\.rawValue).joined(separator: " or ")
                    throw Invalid(description: "isolation in \(path) must be \(accepted), not \(ControlCharacterEscaping.escaped(value))")
                }
                settings.isolation = isolation
            }
        }
        return settings
    }
}
