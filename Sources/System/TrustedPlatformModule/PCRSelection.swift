import CTPM

/// PCRs of the TPM's SHA-256 bank that a sealed object is bound to: it unseals only while they hold the values they
/// held when it was sealed. Empty: bound to the chip alone, not to the boot state.
///
/// PCR values change when firmware, the bootloader, the kernel or Secure Boot's keys change (which PCRs measure what
/// depends on the machine's firmware): a keychain bound to them then opens only with its recovery key.
public struct PCRSelection: Sendable, Hashable, CustomStringConvertible {
    /// Bit i set for PCR i.
    public let mask: UInt32

    /// No PCRs.
    public static let none = PCRSelection(uncheckedMask: 0)

    /// The PCRs a TPM 2.0 has in every bank: 0 to 23.
    public static let indices = 0...23

    /// The PCRs `indices` lists (each 0 to 23).
    public init(_ indices: some Sequence<Int>) throws(TPMError) {
        var mask: UInt32 = 0
        for index in indices {
            guard Self.indices.contains(index) else {
                throw TPMError(code: 0xC0FF_0003, reason: "PCR \(index) does not exist: a TPM's PCRs are numbered 0 to 23")
            }
            mask |= 1 << UInt32(index)
        }
        self.mask = mask
    }

    /// The PCRs a stored mask names; nil when it names one outside 0 to 23.
    public init?(mask: UInt32) {
        guard mask & ~COFFER_TPM_PCR_MASK_ALL == 0 else { return nil }
        self.mask = mask
    }

    private init(uncheckedMask: UInt32) { mask = uncheckedMask }

    /// The PCRs, in increasing order.
    public var list: [Int] { Self.indices.filter { mask & (1 << UInt32($0)) != 0 } }

    /// Whether no PCR is selected.
    public var isEmpty: Bool { mask == 0 }

    /// `sha256:0,7`, or `none`.
    public var description: String {
        isEmpty ? "none" : "sha256:" + list.map(String.init).joined(separator: ",")
    }
}
