extension Request.Kind {
    /// Whether a request of this kind may wait for a person before it is answered
    /// (``OperationTraits/mayWaitForPerson``).
    public var mayWaitForPerson: Bool { traits.mayWaitForPerson }
}
