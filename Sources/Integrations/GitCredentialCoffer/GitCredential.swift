import Foundation

/// One credential in git's credential helper protocol (`git help credential`, "INPUT/OUTPUT FORMAT"):
/// `key=value` lines ended by a blank line or the end of input.
///
/// `url` is split into the other fields as git splits it. The `capability[]` lines git (2.46 and later) sends are
/// kept: with `authtype` among them, `authtype`, `credential` and `ephemeral` carry a pre-encoded credential
/// (a bearer token, say) instead of a user name and password. `wwwauth[]`, `state[]`, `continue` and any other
/// key are accepted and ignored.
struct GitCredential: Equatable {
    /// The capabilities announced with `capability[]` (`authtype`, `state`).
    var capabilities: Set<String> = []
    /// `protocol`, such as `https`.
    var `protocol`: String?
    /// `host`, without its port.
    var host: String?
    /// The port given after the host (`host=example.com:8443`).
    var port: Int?
    /// `path`, sent when `credential.useHttpPath` is set.
    var path: String?
    /// `username`.
    var username: String?
    /// `password`.
    var password: String?
    /// `password_expiry_utc`: Unix time in seconds.
    var passwordExpiry: Int64?
    /// `oauth_refresh_token`.
    var oauthRefreshToken: String?
    /// `authtype`: the scheme of ``credential`` (`Bearer`, `Basic`…), read only with the `authtype` capability.
    var authtype: String?
    /// `credential`: the pre-encoded credential git puts after ``authtype``, read only with the `authtype` capability.
    var credential: String?
    /// `ephemeral`: a credential that must not be stored (read only with the `authtype` capability).
    var isEphemeral = false

    /// The capability that lets `authtype`, `credential` and `ephemeral` be sent.
    static let authtypeCapability = "authtype"

    /// Whether the other side announced the `authtype` capability.
    var understandsAuthtype: Bool { capabilities.contains(Self.authtypeCapability) }

    /// A line that is not `key=value`, named without its value (which may be a secret).
    struct MalformedLine: Error, CustomStringConvertible {
        let number: Int
        var description: String { "line \(number) of the input is not key=value" }
    }

    /// The credential read from `lines`, up to the first empty one.
    init<Lines: Sequence<String>>(lines: Lines) throws {
        var number = 0
        for line in lines {
            number += 1
            if line.isEmpty { break }
            guard let equals = line.firstIndex(of: "=") else { throw MalformedLine(number: number) }
            let key = String(line[..<equals])
            let value = String(line[line.index(after: equals)...])
            switch key {
            case "protocol": self.protocol = value
            case "host": setHost(value)
            case "path": path = value
            case "username": username = value
            case "password": password = value
            case "password_expiry_utc": passwordExpiry = Int64(value)
            case "oauth_refresh_token": oauthRefreshToken = value
            case "url": try setURL(value, line: number)
            case "capability[]": capabilities.insert(value)
            case "authtype": authtype = value
            case "credential": credential = value
            case "ephemeral": isEphemeral = Self.isTrue(value)
            default: break  // wwwauth[], state[], continue, …: not used.
            }
        }
        if !understandsAuthtype {
            // "They should not be provided without the capability": values sent without it are not trusted.
            authtype = nil
            credential = nil
            isEphemeral = false
        }
    }

    /// A boolean as git's configuration reads one (`true`, `yes`, `on`, or a number other than 0).
    private static func isTrue(_ value: String) -> Bool {
        if let number = Int(value) { return number != 0 }
        return ["true", "yes", "on"].contains(value.lowercased())
    }

    /// `host`, split at the last colon into the host and its port when what follows is a port number.
    private mutating func setHost(_ value: String) {
        if let colon = value.lastIndex(of: ":"), !value.hasSuffix("]"), let number = Int(value[value.index(after: colon)...]),
            (0...65535).contains(number)
        {
            host = String(value[..<colon])
            port = number
        } else {
            host = value
            port = nil
        }
    }

    /// `url`, split as git's `credential_from_url` splits it: the protocol before `://`, then an optional
    /// `user[:password]@`, the host (with its port), and the path after the first slash; each part
    /// percent-decoded. Parts the URL lacks are left unset.
    private mutating func setURL(_ url: String, line: Int) throws {
        guard let schemeEnd = url.range(of: "://"), schemeEnd.lowerBound != url.startIndex else {
            throw MalformedLine(number: line)
        }
        self.protocol = String(url[..<schemeEnd.lowerBound])
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                username = Self.decoded(userInfo[..<colon])
                password = Self.decoded(userInfo[userInfo.index(after: colon)...])
            } else {
                username = Self.decoded(userInfo)
            }
            authority = authority[authority.index(after: at)...]
        }
        setHost(Self.decoded(authority))
        if authorityEnd < rest.endIndex {
            var remainder = rest[rest.index(after: authorityEnd)...]
            while remainder.hasSuffix("/") { remainder = remainder.dropLast() }
            if !remainder.isEmpty { path = Self.decoded(remainder) }
        }
    }

    private static func decoded(_ part: Substring) -> String {
        String(part).removingPercentEncoding ?? String(part)
    }
}
