import Foundation

/// The application tag (`kSecAttrApplicationTag`) that marks a key item as the agent's, and the constraints
/// kept with it.
///
/// It reads `coffer.ssh-agent:` followed by options joined by `;`: `expires=UNIX-SECONDS` (`ssh-add -t`),
/// `confirm` (`ssh-add -c`), `dest=BASE64` (`ssh-add -h`: the destination constraints, encoded as the
/// `restrict-destination-v00@openssh.com` extension's contents), `cert=BASE64` (the OpenSSH certificate the key was
/// added with: the item is that certificate's identity, apart from the key's own) and, once per access group a key is limited to (`coffer ssh-agent limit`),
/// `allow=GROUP` with `%`, `;` and `=` percent-encoded. `coffer create-key --ssh` tags its keys with the bare
/// prefix. A tag with an option this agent does not know is not the agent's: such a key is never offered without
/// the restriction it carries (so an agent older than program limits offers no limited key).
public struct AgentKeyTag: Equatable, Sendable {
    /// What every tag of the agent's keys begins with.
    public static let prefix = "coffer.ssh-agent:"

    /// When the key is removed, if it has a lifetime.
    public var expiresAt: Int64?
    /// Whether each use must be confirmed.
    public var confirm: Bool
    /// The access groups of the programs that may use the key; nil when every program of the user may (a key
    /// stored before limits existed, or whose limit was cleared). Never empty when set.
    public var allowedGroups: [String]?
    /// The destination constraints (`ssh-add -h`); empty when the key may be used to log in anywhere.
    public var destinations: [DestinationConstraint]
    /// The certificate blob of a certificate identity; nil for the key's own identity.
    public var certificate: Data?

    /// A tag with these constraints.
    public init(
        expiresAt: Int64? = nil, confirm: Bool = false, allowedGroups: [String]? = nil, destinations: [DestinationConstraint] = [],
        certificate: Data? = nil
    ) {
        self.expiresAt = expiresAt
        self.confirm = confirm
        self.allowedGroups = allowedGroups
        self.destinations = destinations
        self.certificate = certificate
    }

    /// The tag in `data`, or nil when it is not one of the agent's.
    public init?(_ data: Data) {
        guard let text = String(data: data, encoding: .utf8), text.hasPrefix(Self.prefix) else { return nil }
        self.init()
        for option in text.dropFirst(Self.prefix.count).split(separator: ";") {
            if option == "confirm" {
                confirm = true
            } else if option.hasPrefix("expires="), let time = Int64(option.dropFirst("expires=".count)) {
                expiresAt = time
            } else if option.hasPrefix("allow="), let group = String(option.dropFirst("allow=".count)).removingPercentEncoding,
                !group.isEmpty
            {
                allowedGroups = (allowedGroups ?? []) + [group]
            } else if option.hasPrefix("dest="), destinations.isEmpty, let bytes = Data(base64Encoded: String(option.dropFirst("dest=".count))),
                let read = try? DestinationConstraint.list(bytes), !read.isEmpty
            {
                destinations = read
            } else if option.hasPrefix("cert="), certificate == nil, let blob = Data(base64Encoded: String(option.dropFirst("cert=".count))),
                SSHCertificate(blob: blob) != nil
            {
                certificate = blob
            } else {
                return nil
            }
        }
    }

    /// The tag's bytes.
    public var data: Data {
        var options: [String] = []
        if let expiresAt { options.append("expires=\(expiresAt)") }
        if confirm { options.append("confirm") }
        if !destinations.isEmpty { options.append("dest=" + DestinationConstraint.encoded(destinations).base64EncodedString()) }
        if let certificate { options.append("cert=" + certificate.base64EncodedString()) }
        for group in allowedGroups ?? [] { options.append("allow=" + Self.encoded(group)) }
        return Data((Self.prefix + options.joined(separator: ";")).utf8)
    }

    /// Whether a program with `callerGroups` (its access groups, as cofferd would give it) may use the key.
    public func allows(callerGroups: [String]) -> Bool {
        guard let allowedGroups else { return true }
        return allowedGroups.contains { callerGroups.contains($0) }
    }

    /// `group` with `%`, `;` and `=` percent-encoded, so it cannot end or split an option.
    private static func encoded(_ group: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "%;=&")
        return group.addingPercentEncoding(withAllowedCharacters: allowed) ?? group
    }
}
