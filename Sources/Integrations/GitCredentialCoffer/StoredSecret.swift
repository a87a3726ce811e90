import Foundation

/// What the item's data holds, in git-credential-osxkeychain's layout: the password, then
/// `\npassword_expiry_utc=…` and `\noauth_refresh_token=…` when git gave them. git's values never hold
/// a newline, so the first line is always the password. A pre-encoded credential (git's `authtype` and
/// `credential`) takes the password's place, followed by `\nauthtype=…`.
struct StoredSecret: Equatable {
    /// The password, or with ``authtype`` the pre-encoded credential.
    var password: String
    /// The scheme of a pre-encoded credential (`Bearer`…); nil for a password.
    var authtype: String?
    /// `password_expiry_utc`, Unix seconds.
    var passwordExpiry: Int64?
    /// `oauth_refresh_token`.
    var oauthRefreshToken: String?

    private static let expiryPrefix = "password_expiry_utc="
    private static let refreshTokenPrefix = "oauth_refresh_token="
    private static let authtypePrefix = "authtype="

    /// A secret with these parts.
    init(password: String, authtype: String? = nil, passwordExpiry: Int64?, oauthRefreshToken: String?) {
        self.password = password
        self.authtype = authtype
        self.passwordExpiry = passwordExpiry
        self.oauthRefreshToken = oauthRefreshToken
    }

    /// The secret read back from an item's data.
    init(data: Data) {
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        password = lines.first.map(String.init) ?? ""
        for line in lines.dropFirst() {
            if line.hasPrefix(Self.expiryPrefix) {
                passwordExpiry = Int64(line.dropFirst(Self.expiryPrefix.count))
            } else if line.hasPrefix(Self.refreshTokenPrefix) {
                oauthRefreshToken = String(line.dropFirst(Self.refreshTokenPrefix.count))
            } else if line.hasPrefix(Self.authtypePrefix) {
                authtype = String(line.dropFirst(Self.authtypePrefix.count))
            }
        }
    }

    /// The item's data.
    var data: Data {
        var text = password
        if let passwordExpiry { text += "\n\(Self.expiryPrefix)\(passwordExpiry)" }
        if let oauthRefreshToken { text += "\n\(Self.refreshTokenPrefix)\(oauthRefreshToken)" }
        if let authtype { text += "\n\(Self.authtypePrefix)\(authtype)" }
        return Data(text.utf8)
    }

    /// Whether the password's expiry is before `now`.
    func isExpired(now: Date) -> Bool {
        guard let passwordExpiry else { return false }
        return passwordExpiry < Int64(now.timeIntervalSince1970)
    }
}
