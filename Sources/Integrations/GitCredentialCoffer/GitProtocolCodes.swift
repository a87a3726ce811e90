/// git's `protocol` values and the `kSecAttrProtocol` codes git-credential-osxkeychain stores them under.
/// A protocol not listed here is not stored or looked up (osxkeychain ignores it too), so git goes on to
/// its other helpers or asks.
enum GitProtocolCodes {
    /// `kSecAttrProtocol…` for each protocol git names.
    static let codes: [String: String] = [
        "https": "htps", "http": "http", "ftp": "ftp ", "ftps": "ftps", "imap": "imap", "imaps": "imps", "smtp": "smtp",
    ]

    /// The code for `protocol`, or nil when the helper does not handle it.
    static func code(for protocol: String) -> String? { codes[`protocol`] }
}
