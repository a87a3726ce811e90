import Foundation

/// The application tag (`kSecAttrApplicationTag`) that marks a key item as the agent's, and the constraints
/// kept with it.
///
/// It reads `coffer.ssh-agent:` followed by options joined by `;`: `expires=UNIX-SECONDS` (`ssh-add -t`) and
/// `confirm` (`ssh-add -c`). `coffer create-key --ssh` tags its keys with the bare prefix. A tag with an option
/// this agent does not know is not the agent's: such a key is never offered without the restriction it carries.
public struct AgentKeyTag: Equatable, Sendable {
    /// What every tag of the agent's keys begins with.
    public static let prefix = "coffer.ssh-agent:"

    /// When the key is removed, if it has a lifetime.
    public var expiresAt: Int64?
    /// Whether each use must be confirmed.
    public var confirm: Bool

    /// A tag with these constraints.
    public init(expiresAt: Int64? = nil, confirm: Bool = false) {
        self.expiresAt = expiresAt
        self.confirm = confirm
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
        return Data((Self.prefix + options.joined(separator: ";")).utf8)
    }
}
