/// A registry server URL split as docker's helpers split it (`registryurl.Parse`, then Go's `net/url`): a
/// URL without `://` is read as `//` plus it, so a bare host is a host (and means https); only `http` and
/// `https` are accepted; the query and fragment are dropped.
struct RegistryURL: Equatable {
    /// `http` or `https`.
    var scheme: String
    /// The host name, without brackets or port.
    var host: String
    /// The port, when the URL names one.
    var port: Int?
    /// The path, percent-decoded; empty when there is none.
    var path: String

    /// Why a server URL was refused, in the words docker's helpers use.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses `serverURL`.
    init(_ serverURL: String) throws(Invalid) {
        var text = Substring(serverURL)
        if let hash = text.firstIndex(of: "#") { text = text[..<hash] }
        var scheme = ""
        if let separator = text.range(of: "://") {
            scheme = text[..<separator.lowerBound].lowercased()
            text = text[separator.upperBound...]
        } else if text.hasPrefix("//") {
            text = text.dropFirst(2)
        }
        guard scheme.isEmpty || scheme == "https" || scheme == "http" else { throw Invalid(description: "unsupported scheme: \(scheme)") }
        if let question = text.firstIndex(of: "?") { text = text[..<question] }
        let authorityEnd = text.firstIndex(of: "/") ?? text.endIndex
        var authority = text[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var hostPart = authority
        var portText: Substring = ""
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw Invalid(description: "parse \"\(serverURL)\": invalid port \"\(after)\" after host")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard portText.allSatisfy(\.isASCII) && portText.allSatisfy(\.isNumber) else {
            throw Invalid(description: "parse \"\(serverURL)\": invalid port \":\(portText)\" after host")
        }
        guard !hostPart.isEmpty else { throw Invalid(description: "no hostname in URL") }
        self.scheme = scheme.isEmpty ? "https" : scheme
        host = String(hostPart).removingPercentEncodingOrSelf
        port = portText.isEmpty ? nil : Int(portText)
        path = String(text[authorityEnd...]).removingPercentEncodingOrSelf
    }

    /// The URL `list` shows for an item: scheme, host (with the port), path.
    static func display(scheme: String, host: String, port: Int?, path: String) -> String {
        var authority = host
        if let port, port != 0 { authority = (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }
        let separator = !path.isEmpty && !path.hasPrefix("/") ? "/" : ""
        return "\(scheme)://\(authority)\(separator)\(path)"
    }
}

extension String {
    /// The string percent-decoded, or unchanged when it is not valid percent-encoding.
    fileprivate var removingPercentEncodingOrSelf: String { removingPercentEncoding ?? self }
}
