#if canImport(Glibc)
import Glibc
#endif

/// What systemd asks for when it connects to read a credential (`LoadCredential=ID:/run/coffer/credentials.sock`): it
/// binds its end to the abstract address `\0RANDOM/unit/UNIT/ID` before connecting, so the unit and the credential
/// are in the peer's address.
struct CredentialRequest: Equatable, Sendable {
    /// The unit being started (`backup.service`).
    let unit: String
    /// The credential's name, as the unit's `LoadCredential=` names it.
    let credential: String

    /// Parses the abstract address `name` (the bytes after the leading NUL), or nil when it is not systemd's form.
    init?(abstractName name: [UInt8]) {
        let parts = name.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 4, !parts[0].isEmpty, parts[1].elementsEqual("unit".utf8), !parts[2].isEmpty, !parts[3].isEmpty,
            let unit = String(validating: parts[2], as: UTF8.self), let credential = String(validating: parts[3], as: UTF8.self),
            credential != ".", credential != "..", !credential.utf8.contains(0), !unit.utf8.contains(0)
        else { return nil }
        self.unit = unit
        self.credential = credential
    }

    /// The request of the peer of the connected socket `descriptor`, read from its address; nil when the peer is not
    /// bound to an abstract address of systemd's form.
    static func ofPeer(_ descriptor: Int32) -> CredentialRequest? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let read = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path) ?? 2
        guard read == 0, Int(length) > pathOffset + 1 else { return nil }
        let bytes = withUnsafeBytes(of: &address.sun_path) { Array($0.prefix(Int(length) - pathOffset)) }
        guard bytes.first == 0 else { return nil }
        return CredentialRequest(abstractName: Array(bytes.dropFirst()))
    }
}
