/// A D-Bus error the provider answers a call with: its name (which clients match) and a text for people.
/// The text never holds a secret, an attribute or a label.
enum BusReplyError: Error, Sendable {
    /// `org.freedesktop.DBus.Error.InvalidArgs`: the arguments are not what the method takes.
    case invalidArguments(String)
    /// `org.freedesktop.Secret.Error.NoSuchObject`: no collection at a path a call names as its argument.
    case noSuchObject(String)
    /// `org.freedesktop.DBus.Error.UnknownMethod` "Object does not exist at path …": a call on an item that does not
    /// exist (or that the caller may not see), as gnome-keyring (GDBus) answers a call on a missing object.
    case unknownObject(path: String)
    /// `org.freedesktop.Secret.Error.NoSession`: the session named does not exist.
    case noSession(String)
    /// `org.freedesktop.Secret.Error.IsLocked`: the keychain is locked.
    case isLocked(String)
    /// `org.freedesktop.DBus.Error.NotSupported`: not done by this provider (yet), or an unknown algorithm
    /// (libsecret then falls back to `plain`).
    case notSupported(String)
    /// `org.freedesktop.DBus.Error.AccessDenied`: the calling program may not do this (it could not be
    /// identified, or its registration refuses it).
    case accessDenied(String)
    /// `org.freedesktop.DBus.Error.Failed`: the keychain refused or failed.
    case failed(String)

    /// The D-Bus error name.
    var name: String {
        switch self {
        case .invalidArguments: "org.freedesktop.DBus.Error.InvalidArgs"
        case .noSuchObject: "org.freedesktop.Secret.Error.NoSuchObject"
        case .unknownObject: "org.freedesktop.DBus.Error.UnknownMethod"
        case .noSession: "org.freedesktop.Secret.Error.NoSession"
        case .isLocked: "org.freedesktop.Secret.Error.IsLocked"
        case .notSupported: "org.freedesktop.DBus.Error.NotSupported"
        case .accessDenied: "org.freedesktop.DBus.Error.AccessDenied"
        case .failed: "org.freedesktop.DBus.Error.Failed"
        }
    }

    /// The message for people.
    var text: String {
        switch self {
        case .invalidArguments(let text), .noSuchObject(let text), .noSession(let text), .isLocked(let text),
            .notSupported(let text), .accessDenied(let text), .failed(let text):
            text
        case .unknownObject(let path): "Object does not exist at path \u{201C}\(path)\u{201D}"
        }
    }
}
