/// The bounds a peer's bytes must respect; decoding checks each one before it allocates.
///
/// Requests (client → daemon) and responses (daemon → client) have their own limits: a request carries at
/// most one secret (``Query/SizeLimits/valueData``, 16 MiB, plus room for its attributes), while a
/// `kSecMatchLimitAll` search can answer with several. An encoder refuses to produce what the peer's
/// decoder would reject, so an over-limit message fails on the sending side with the same error.
public struct ProtocolLimits: Sendable, Hashable {
    /// The largest payload a frame may announce, in bytes (the 10-byte header is not counted).
    public var maximumPayloadLength: Int
    /// How many arrays and dictionaries may nest inside each other (a query dictionary counts as one).
    public var maximumNestingDepth: Int
    /// How many values one payload may hold, counting every `KeychainValue` (dictionary keys included)
    /// and every string of an apps list; this bounds the memory a small payload can make the decoder allocate.
    public var maximumValueCount: Int

    /// Limits with the given bounds; `maximumPayloadLength` is capped at `UInt32.max`, the largest length
    /// a header can carry.
    public init(maximumPayloadLength: Int, maximumNestingDepth: Int, maximumValueCount: Int) {
        self.maximumPayloadLength = min(max(maximumPayloadLength, 0), Int(UInt32.max))
        self.maximumNestingDepth = max(maximumNestingDepth, 1)
        self.maximumValueCount = max(maximumValueCount, 0)
    }

    /// What the daemon accepts from a client: 17 MiB payloads (a 16 MiB secret plus its attributes),
    /// 32 levels of nesting, 2^20 values.
    public static let requests = ProtocolLimits(
        maximumPayloadLength: 17 << 20, maximumNestingDepth: 32, maximumValueCount: 1 << 20)

    /// What a client accepts from the daemon: 64 MiB payloads, 32 levels of nesting, 2^22 values.
    /// A result that does not fit cannot be sent; the daemon answers `errSecAllocate` (-108) instead.
    public static let responses = ProtocolLimits(
        maximumPayloadLength: 64 << 20, maximumNestingDepth: 32, maximumValueCount: 1 << 22)
}
