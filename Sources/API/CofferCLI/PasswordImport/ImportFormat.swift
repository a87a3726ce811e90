import ArgumentParser

/// The password managers whose exports `coffer import --from` reads.
enum ImportFormat: String, ExpressibleByArgument, CaseIterable {
    /// The password store of `pass` (a folder of gpg files).
    case pass
    /// KeePassXC's CSV export.
    case keepassxc
    /// Bitwarden's unencrypted JSON export.
    case bitwarden
    /// The FIDO Alliance's Credential Exchange Format (JSON).
    case cxf

    /// The manager's name, for messages.
    var displayName: String {
        switch self {
        case .pass: "the password store"
        case .keepassxc: "KeePassXC"
        case .bitwarden: "Bitwarden"
        case .cxf: "the Credential Exchange file"
        }
    }
}
