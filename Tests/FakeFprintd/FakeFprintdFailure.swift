/// The test bus or the fake fprintd could not be started.
public struct FakeFprintdFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String

    public var description: String { message }
}
