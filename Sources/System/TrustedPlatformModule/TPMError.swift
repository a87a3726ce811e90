/// Why the TPM could not do what was asked: tpm2-tss's or the TPM's code, and a sentence for people.
public struct TPMError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The TSS2_RC, or one of Coffer's codes (`0xC0FF00xx`).
    public let code: UInt32
    /// What went wrong, for people; never holds a secret.
    public let reason: String

    /// Creates an error.
    public init(code: UInt32, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// tpm2-tss is not installed on this machine.
    public var isLibraryMissing: Bool { code == 0xC0FF_0001 }

    public var description: String { reason }
}
