/// The names of fprintd's D-Bus API (net.reactivated.Fprint.Manager.xml and net.reactivated.Fprint.Device.xml
/// in fprintd's sources), and of the bus's own errors that say fprintd is not there.
enum FprintdNames {
    /// fprintd's well-known name on the system bus.
    static let busName = "net.reactivated.Fprint"
    /// The manager object.
    static let managerPath = "/net/reactivated/Fprint/Manager"
    /// The manager's interface: `GetDefaultDevice() → o`.
    static let managerInterface = "net.reactivated.Fprint.Manager"
    /// A reader's interface: `ListEnrolledFingers(s) → as`, `Claim(s)`, `VerifyStart(s)`, `VerifyStop()`,
    /// `Release()`, and the signal `VerifyStatus(s result, b done)`.
    static let deviceInterface = "net.reactivated.Fprint.Device"
    /// The finger name that asks `VerifyStart` for any enrolled finger.
    static let anyFinger = "any"

    /// `GetDefaultDevice`: the system has no reader.
    static let noSuchDevice = "net.reactivated.Fprint.Error.NoSuchDevice"
    /// `ListEnrolledFingers`, `VerifyStart`: the user has no enrolled fingers.
    static let noEnrolledPrints = "net.reactivated.Fprint.Error.NoEnrolledPrints"
    /// `Claim`, `VerifyStart`: another client is using the reader.
    static let alreadyInUse = "net.reactivated.Fprint.Error.AlreadyInUse"
    /// Any call: polkit refused the caller.
    static let permissionDenied = "net.reactivated.Fprint.Error.PermissionDenied"

    /// The bus: nothing owns the name, and it cannot be activated.
    static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
    /// The bus: nothing owns the name.
    static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"

    /// The match rule for the `VerifyStatus` signals of the reader at `devicePath`.
    static func verifyStatusRule(devicePath: String) -> String {
        "type='signal',sender='\(busName)',path='\(devicePath)',interface='\(deviceInterface)',member='VerifyStatus'"
    }

    /// The match rule for fprintd leaving the bus (or being replaced): the bus's `NameOwnerChanged` for its name.
    static let ownerChangedRule =
        "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
        + "member='NameOwnerChanged',arg0='\(busName)'"
}
