/// fprintd's default reader, reached over one bus connection.
struct FprintdDevice {
    /// The connection the calls go over.
    let connection: BusConnection
    /// The reader's object path ("/net/reactivated/Fprint/Device/0").
    let path: String
    /// fprintd's unique bus name (":1.42"), from the reply that named the reader: only signals it
    /// sent are believed.
    let owner: String?

    /// Asks fprintd's manager for the default reader, waiting at most `timeout`.
    static func defaultDevice(on connection: BusConnection, timeout: Duration) throws(BusFailure) -> FprintdDevice {
        let reply = try connection.call(
            FprintdNames.busName, path: FprintdNames.managerPath, interface: FprintdNames.managerInterface,
            member: "GetDefaultDevice", timeout: timeout)
        return FprintdDevice(connection: connection, path: try reply.readString(type: "o"), owner: reply.sender)
    }

    /// The fingers enrolled for `user` (`ListEnrolledFingers`); fprintd answers `NoEnrolledPrints` when none.
    func enrolledFingers(user: String, timeout: Duration) throws(BusFailure) -> [String] {
        try call("ListEnrolledFingers", argument: user, timeout: timeout).readStrings()
    }

    /// Calls `member` on the reader, with `argument` as its one string argument (none when nil).
    @discardableResult
    func call(_ member: String, argument: String? = nil, timeout: Duration) throws(BusFailure) -> BusMessage {
        try connection.call(
            FprintdNames.busName, path: path, interface: FprintdNames.deviceInterface, member: member,
            argument: argument, timeout: timeout)
    }

    /// Whether `message` is a `VerifyStatus` signal from this reader, sent by fprintd itself.
    func isVerifyStatus(_ message: BusMessage) -> Bool {
        message.isSignal(interface: FprintdNames.deviceInterface, member: "VerifyStatus")
            && message.path == path && message.sender == owner
    }
}
