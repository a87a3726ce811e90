import CSecretServiceBus
import Foundation

/// The arguments of a D-Bus message sd-bus handed to the provider, read in order. It does not own the
/// message, which sd-bus keeps alive for the duration of the call.
struct BusReader {
    let message: OpaquePointer

    /// Reads a string (`s`).
    func string() throws(BusReplyError) -> String { try basic("s") }

    /// Reads an object path (`o`).
    func objectPath() throws(BusReplyError) -> String { try basic("o") }

    /// Reads a boolean (`b`).
    func bool() throws(BusReplyError) -> Bool {
        var value: Int32 = 0
        try check(coffer_secret_read_bool(message, &value))
        return value != 0
    }

    /// Reads an unsigned 64-bit integer (`t`).
    func uint64() throws(BusReplyError) -> UInt64 {
        var value: UInt64 = 0
        try check(coffer_secret_read_uint64(message, &value))
        return value
    }

    /// Reads an unsigned 32-bit integer (`u`).
    func uint32() throws(BusReplyError) -> UInt32 {
        var value: UInt32 = 0
        try check(coffer_secret_read_uint32(message, &value))
        return value
    }

    /// Reads a byte array (`ay`).
    func bytes() throws(BusReplyError) -> Data {
        var pointer: UnsafeRawPointer?
        var count = 0
        try check(coffer_secret_read_bytes(message, &pointer, &count))
        guard let pointer, count > 0 else { return Data() }
        return Data(bytes: pointer, count: count)
    }

    /// Reads an array of object paths (`ao`).
    func objectPaths() throws(BusReplyError) -> [String] {
        try enter("a", "o")
        var paths: [String] = []
        while try peekType() != nil { paths.append(try objectPath()) }
        try exit()
        return paths
    }

    /// Reads a dictionary of strings (`a{ss}`); a repeated key keeps its last value.
    func stringDictionary() throws(BusReplyError) -> [String: String] {
        try enter("a", "{ss}")
        var dictionary: [String: String] = [:]
        while try peekType() != nil {
            try enter("e", "ss")
            let key = try string()
            dictionary[key] = try string()
            try exit()
        }
        try exit()
        return dictionary
    }

    /// Reads a secret (`(oayays)`).
    func secret() throws(BusReplyError) -> TransportedSecret {
        try enter("r", "oayays")
        let session = try objectPath()
        let parameters = try bytes()
        let value = try bytes()
        let contentType = try string()
        try exit()
        return TransportedSecret(session: session, parameters: parameters, value: value, contentType: contentType)
    }

    /// Reads the properties of a new item (`a{sv}`): the label, the attributes and the type (schema) under their
    /// `org.freedesktop.Secret.Item.` names; other properties are skipped. One of those three of another type is
    /// `InvalidArgs`, as gnome-keyring answers it.
    func itemProperties() throws(BusReplyError) -> (label: String?, attributes: [String: String]?, type: String?) {
        var label: String?
        var attributes: [String: String]?
        var type: String?
        try enter("a", "{sv}")
        while try peekType() != nil {
            try enter("e", "sv")
            let name = try string()
            let contents = try variantContents()
            switch (name, contents) {
            case ("org.freedesktop.Secret.Item.Label", "s"):
                try enter("v", "s")
                label = try string()
                try exit()
            case ("org.freedesktop.Secret.Item.Attributes", "a{ss}"):
                try enter("v", "a{ss}")
                attributes = try stringDictionary()
                try exit()
            case ("org.freedesktop.Secret.Item.Type", "s"):
                try enter("v", "s")
                type = try string()
                try exit()
            case ("org.freedesktop.Secret.Item.Label", _), ("org.freedesktop.Secret.Item.Attributes", _), ("org.freedesktop.Secret.Item.Type", _):
                throw .invalidArguments("the property \(name) has the wrong type")
            default:
                try check(coffer_secret_skip(message))
            }
            try exit()
        }
        try exit()
        return (label, attributes, type)
    }

    /// The contents of the variant that comes next (its signature).
    func variantContents() throws(BusReplyError) -> String {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        try check(coffer_secret_peek(message, &type, &contents))
        guard type == CChar(UInt8(ascii: "v")), let contents else { throw .invalidArguments("a variant was expected") }
        return String(cString: contents)
    }

    /// Enters a variant holding a string (`v` of `s`), as OpenSession's input for `plain` is.
    func variantString() throws(BusReplyError) -> String? {
        guard try variantContents() == "s" else {
            try check(coffer_secret_skip(message))
            return nil
        }
        try enter("v", "s")
        let value = try string()
        try exit()
        return value
    }

    /// Enters a variant holding bytes (`v` of `ay`), as OpenSession's input for DH is.
    func variantBytes() throws(BusReplyError) -> Data? {
        guard try variantContents() == "ay" else {
            try check(coffer_secret_skip(message))
            return nil
        }
        try enter("v", "ay")
        let value = try bytes()
        try exit()
        return value
    }

    private func basic(_ type: Character) throws(BusReplyError) -> String {
        var value: UnsafePointer<CChar>?
        let read = coffer_secret_read_string(message, CChar(type.asciiValue!), &value)
        guard read > 0, let value else { throw .invalidArguments("a value of type \(type) was expected") }
        return String(cString: value)
    }

    /// The type of the next argument, nil at the end of the current container.
    private func peekType() throws(BusReplyError) -> CChar? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        try check(coffer_secret_peek(message, &type, &contents))
        return type == 0 ? nil : type
    }

    /// Enters a container of `type` (`a`, `r`, `v`, `e`) holding `contents`.
    func enter(_ type: Character, _ contents: String) throws(BusReplyError) {
        let entered = contents.withCString { coffer_secret_enter(message, CChar(type.asciiValue!), $0) }
        guard entered > 0 else { throw .invalidArguments("a \(type) of \(contents) was expected") }
    }

    /// Leaves the innermost entered container.
    func exit() throws(BusReplyError) { try check(coffer_secret_exit(message)) }

    /// Skips the next argument, whatever its type.
    func skip() throws(BusReplyError) { try check(coffer_secret_skip(message)) }

    /// The type of the next argument, nil at the end of the current container.
    func nextType() throws(BusReplyError) -> CChar? { try peekType() }

    private func check(_ result: Int32) throws(BusReplyError) {
        guard result >= 0 else { throw .invalidArguments("the arguments do not match the method's signature") }
    }
}

/// Builds the arguments of a reply, a signal or a property value. It does not own the message.
struct BusWriter {
    let message: OpaquePointer

    /// Appends a string (`s`).
    func string(_ value: String) throws(BusReplyError) { try check(coffer_secret_append_string(message, value)) }

    /// Appends an object path (`o`).
    func objectPath(_ value: String) throws(BusReplyError) { try check(coffer_secret_append_object_path(message, value)) }

    /// Appends a boolean (`b`).
    func bool(_ value: Bool) throws(BusReplyError) { try check(coffer_secret_append_bool(message, value ? 1 : 0)) }

    /// Appends an unsigned 64-bit integer (`t`).
    func uint64(_ value: UInt64) throws(BusReplyError) { try check(coffer_secret_append_uint64(message, value)) }

    /// Appends a byte array (`ay`).
    func bytes(_ value: Data) throws(BusReplyError) {
        let result = value.withUnsafeBytes { coffer_secret_append_bytes(message, $0.baseAddress, $0.count) }
        try check(result)
    }

    /// Appends an array of object paths (`ao`).
    func objectPaths(_ paths: [String]) throws(BusReplyError) {
        try open("a", "o")
        for path in paths { try objectPath(path) }
        try close()
    }

    /// Appends a dictionary of strings (`a{ss}`), keys in order.
    func stringDictionary(_ dictionary: [String: String]) throws(BusReplyError) {
        try open("a", "{ss}")
        for key in dictionary.keys.sorted() {
            try open("e", "ss")
            try string(key)
            try string(dictionary[key]!)
            try close()
        }
        try close()
    }

    /// Appends a secret (`(oayays)`).
    func secret(_ secret: TransportedSecret) throws(BusReplyError) {
        try open("r", "oayays")
        try objectPath(secret.session)
        try bytes(secret.parameters)
        try bytes(secret.value)
        try string(secret.contentType)
        try close()
    }

    /// Appends a map of item paths to secrets (`a{o(oayays)}`).
    func secrets(_ secrets: [(path: String, secret: TransportedSecret)]) throws(BusReplyError) {
        try open("a", "{o(oayays)}")
        for entry in secrets {
            try open("e", "o(oayays)")
            try objectPath(entry.path)
            try secret(entry.secret)
            try close()
        }
        try close()
    }

    /// Appends a variant holding what `contents` writes, of the signature `signature`.
    func variant(_ signature: String, _ contents: (BusWriter) throws(BusReplyError) -> Void) throws(BusReplyError) {
        try open("v", signature)
        try contents(self)
        try close()
    }

    private func open(_ type: Character, _ contents: String) throws(BusReplyError) {
        try check(contents.withCString { coffer_secret_open(message, CChar(type.asciiValue!), $0) })
    }

    private func close() throws(BusReplyError) { try check(coffer_secret_close(message)) }

    private func check(_ result: Int32) throws(BusReplyError) {
        guard result >= 0 else { throw .failed("the reply could not be built (errno \(-result))") }
    }
}
