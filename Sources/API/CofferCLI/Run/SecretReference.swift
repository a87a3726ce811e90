import Foundation
import KeychainModel
import Query

/// An item `coffer run` reads a secret from, as its command line names it:
///
/// - `coffer://generic/SERVICE[/ACCOUNT]`: a generic password (`kSecClassGenericPassword`), by service and account;
/// - `coffer://internet/SERVER[/ACCOUNT]`: an internet password, by server and account;
/// - `coffer://ref/HEX`: the item with this persistent reference (as `coffer audit show` prints it).
///
/// Components are percent-decoded, so a service with a `/` in it is written `%2F`. Without an account, the first item
/// of the service (or server) is read.
struct SecretReference: Equatable {
    /// The reference as written, to name it in messages.
    let text: String
    /// The search's entries: the class and the attributes, or the persistent reference.
    let entries: [KeychainValue: KeychainValue]

    /// The forms, for messages.
    static let forms = "coffer://generic/SERVICE[/ACCOUNT], coffer://internet/SERVER[/ACCOUNT] or coffer://ref/HEX"

    /// Parses `text`, or says what is wrong with it.
    init(parsing text: String) throws(CLIFailure) {
        self.text = text
        let prefix = "coffer://"
        guard text.hasPrefix(prefix) else { throw Self.failure(text, "it does not start with coffer://") }
        let parts = text.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let kind = parts.first, parts.count >= 2, parts.count <= 3 else {
            throw Self.failure(text, "it names a kind and one or two components")
        }
        var components: [String] = []
        for part in parts.dropFirst() {
            guard let decoded = part.removingPercentEncoding, !decoded.isEmpty else {
                throw Self.failure(text, "a component is empty or not valid percent-encoding")
            }
            components.append(decoded)
        }
        switch kind {
        case "generic":
            entries = Self.attributes(ItemClass.genericPassword, QueryKey.service, components)
        case "internet":
            entries = Self.attributes(ItemClass.internetPassword, QueryKey.server, components)
        case "ref":
            guard components.count == 1, let bytes = Hexadecimal.bytes(components[0]),
                let reference = PersistentReference(data: Data(bytes))
            else { throw Self.failure(text, "a persistent reference is 20 bytes in hexadecimal, as `coffer audit show` prints it") }
            guard reference.classCode == ItemClass.genericPassword.rawValue || reference.classCode == ItemClass.internetPassword.rawValue else {
                throw Self.failure(text, "it names a \(reference.classCode) item; only passwords (genp, inet) hold a secret to hand on")
            }
            entries = [
                .string(QueryKey.itemClass): .string(reference.classCode), .string(QueryKey.valuePersistentRef): .data(Data(bytes)),
            ]
        default:
            throw Self.failure(text, "the kind is generic, internet or ref, not \(kind)")
        }
    }

    private static func attributes(_ itemClass: ItemClass, _ primary: String, _ components: [String]) -> [KeychainValue: KeychainValue] {
        var entries: [KeychainValue: KeychainValue] = [.string(QueryKey.itemClass): .string(itemClass.rawValue), .string(primary): .string(components[0])]
        if components.count == 2 { entries[.string(QueryKey.account)] = .string(components[1]) }
        return entries
    }

    private static func failure(_ text: String, _ why: String) -> CLIFailure {
        CLIFailure("run: \(text) is not an item reference: \(why) (\(forms))", exitCode: 64)
    }
}
