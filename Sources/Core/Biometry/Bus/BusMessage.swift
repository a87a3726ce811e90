import CSystemdBus

#if canImport(Glibc)
import Glibc
#endif

/// A D-Bus message sd-bus handed over (a method's reply, a signal), read from the start, argument by
/// argument. Released when the object goes away.
final class BusMessage {
    private let message: OpaquePointer

    /// Takes over the reference the caller holds on `message`.
    init(taking message: OpaquePointer) {
        self.message = message
    }

    deinit {
        coffer_sd_bus_message_unref(message)
    }

    /// The unique bus name of the sender (":1.42"), as the bus stamped it.
    var sender: String? { coffer_sd_bus_message_get_sender(message).map { String(cString: $0) } }

    /// The object path the message is about.
    var path: String? { coffer_sd_bus_message_get_path(message).map { String(cString: $0) } }

    /// Whether the message is the signal `interface`.`member`.
    func isSignal(interface: String, member: String) -> Bool {
        coffer_sd_bus_message_is_signal(message, interface, member) > 0
    }

    /// Reads the next argument, of the string-like type `type` ("s" a string, "o" an object path).
    func readString(type: Character = "s") throws(BusFailure) -> String {
        var value: UnsafePointer<CChar>?
        let read = coffer_sd_bus_message_read_basic(message, CChar(type.asciiValue!), &value)
        guard read > 0, let value else { throw BusFailure(code: read < 0 ? read : -EBADMSG) }
        return String(cString: value)
    }

    /// Reads the next argument, a boolean ("b").
    func readBool() throws(BusFailure) -> Bool {
        var value: Int32 = 0
        let read = coffer_sd_bus_message_read_basic(message, CChar(UInt8(ascii: "b")), &value)
        guard read > 0 else { throw BusFailure(code: read < 0 ? read : -EBADMSG) }
        return value != 0
    }

    /// Reads the next argument, an array of strings ("as").
    func readStrings() throws(BusFailure) -> [String] {
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let read = coffer_sd_bus_message_read_strv(message, &list)
        guard read >= 0 else { throw BusFailure(code: read) }
        guard let list else { return [] }
        defer { free(list) }
        var strings: [String] = []
        var index = 0
        while let element = list[index] {
            strings.append(String(cString: element))
            free(element)
            index += 1
        }
        return strings
    }
}
