/// Coffer's release version, which every executable reports (`coffer --version`, `cofferd --version`, the helpers).
public enum CofferVersion {
    /// The version, `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"
}
