/// How the fake fprintd behaves (Fixtures/fake_fprintd.py reads it at each call).
public struct FakeFprintdState: Encodable, Sendable {
    /// Whether there is a reader; false makes `GetDefaultDevice` answer `NoSuchDevice`.
    public var device = true
    /// The enrolled finger names; none makes `ListEnrolledFingers` answer `NoEnrolledPrints`.
    public var enrolled: [String] = []
    /// The `VerifyStatus` results sent after `VerifyStart`, 50 ms apart; none sends nothing.
    public var verify: [String] = []
    /// Whether `Claim` answers `AlreadyInUse`.
    public var busy = false
    /// Whether the fake leaves the bus just after `VerifyStart`.
    public var vanish = false

    /// A state.
    public init(device: Bool = true, enrolled: [String] = [], verify: [String] = [], busy: Bool = false, vanish: Bool = false) {
        self.device = device
        self.enrolled = enrolled
        self.verify = verify
        self.busy = busy
        self.vanish = vanish
    }
}
