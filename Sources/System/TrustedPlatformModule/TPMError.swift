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

    /// The TPM refused the authorisation value an object was used with (TPM_RC_BAD_AUTH or TPM_RC_AUTH_FAIL, for any
    /// session): the object was made for another caller.
    public var isWrongAuthorization: Bool {
        code & 0xFFFF_F000 == 0 && code & 0x80 != 0 && (code & 0x3F == 0x22 || code & 0x3F == 0x0E)
    }

    /// The TPM refused a policy session (TPM_RC_POLICY_FAIL, or TPM_RC_PCR_CHANGED while it ran): a PCR-bound
    /// object's PCRs hold other values than when it was sealed.
    public var isPolicyFailure: Bool {
        code & 0xFFFF_F000 == 0 && ((code & 0x80 != 0 && code & 0x3F == 0x1D) || code & 0x7FF == 0x128)
    }

    public var description: String { reason }
}
