/// Whether the provider keeps programs apart: the owner's choice, `isolation` in ``SecretServiceSettings/systemPath``.
public enum SecretServiceIsolation: String, Sendable, CaseIterable {
    /// Each program sees the items it created and those of the access groups it is registered for
    /// (`coffer apps`); the default.
    case perProgram = "per-program"
    /// Every program of the user sees every item, as with gnome-keyring: for users who want its behaviour.
    case shared

    /// The setting `isolation` names (`per-program` or `shared`); nil for any other value.
    public init?(setting: String) {
        self.init(rawValue: setting)
    }
}
