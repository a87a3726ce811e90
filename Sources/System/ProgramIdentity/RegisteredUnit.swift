/// A systemd unit registered to read credentials from the keychain (`coffer apps add --unit NAME`): the items it may
/// read are those of its access groups, as a registered program's.
public struct RegisteredUnit: Sendable, Hashable, Codable {
    /// The unit's full name (`backup.service`), as systemd names it in the address it connects from.
    public var name: String
    /// The application identifier the unit is given.
    public var appID: String
    /// The keychain access groups, in order.
    public var groups: [String]

    /// Creates an entry.
    public init(name: String, appID: String, groups: [String]) {
        self.name = name
        self.appID = appID
        self.groups = groups
    }

    /// The unit's access-group list, in Apple's order: the groups, then the application identifier.
    public var accessGroups: [String] {
        var list = groups
        if !list.contains(appID) { list.append(appID) }
        return list
    }

    /// Whether `name` is a unit name systemd accepts: at most 255 bytes of letters, digits and `:-_.\@`, with a unit
    /// type's suffix (`.service`, `.socket`, `.timer`…).
    public static func isValidName(_ name: String) -> Bool {
        let suffixes = [".service", ".socket", ".timer", ".path", ".mount", ".target", ".scope", ".slice"]
        guard name.utf8.count <= 255, let suffix = suffixes.first(where: name.hasSuffix), name.utf8.count > suffix.utf8.count,
            name.first != "."
        else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || Array(":-_.\\@".utf8).contains(byte)
        }
    }
}
