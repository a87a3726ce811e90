/// Why bytes from a peer were refused. Any of these ends the connection that sent them, and only that one.
///
/// Tests compare the cases; ``description`` is for logs and never quotes the offending bytes (a payload
/// may hold a secret).
public enum ProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stream ended inside a frame: after part of a header, or before the announced payload arrived.
    case truncated
    /// A frame announces (or an encoder would produce) a payload longer than the limit.
    case oversized(length: Int, limit: Int)
    /// The header carries a protocol version this build does not speak.
    case unsupportedVersion(UInt16)
    /// The bytes do not begin with the frame magic `CFRP`: not a Coffer peer, or a stream out of step.
    case badMagic
    /// The frame is intact but its payload is not a valid message.
    case malformedPayload(MalformedPayload)

    public var description: String {
        switch self {
        case .truncated: "the stream ended inside a frame"
        case .oversized(let length, let limit): "a payload of \(length) bytes exceeds the limit of \(limit) bytes"
        case .unsupportedVersion(let version):
            "protocol version \(version) is not supported (this build speaks \(FrameFormat.version))"
        case .badMagic: "the bytes are not a Coffer daemon frame (bad magic)"
        case .malformedPayload(let reason): "malformed payload: \(reason)"
        }
    }
}

/// What is wrong inside a payload. Decoding is strict: every byte string has exactly one meaning, and
/// exactly one encoding of each message is accepted.
public enum MalformedPayload: Sendable, Hashable, CustomStringConvertible {
    /// A field runs past the end of the payload (including a length longer than what remains).
    case unexpectedEnd
    /// Bytes remain after the message.
    case trailingBytes(count: Int)
    /// The first byte names no message of this direction.
    case unknownMessage(UInt8)
    /// A value's type tag is unknown.
    case unknownValueTag(UInt8)
    /// An element count is larger than the remaining bytes could possibly hold.
    case countExceedsRemainingBytes(count: Int)
    /// Arrays and dictionaries nest deeper than ``ProtocolLimits/maximumNestingDepth``.
    case nestingTooDeep(limit: Int)
    /// The payload holds more than ``ProtocolLimits/maximumValueCount`` values.
    case tooManyValues(limit: Int)
    /// Text is not valid UTF-8.
    case invalidUTF8
    /// Dictionary keys are not in strictly ascending byte order (the canonical order; a repeated key
    /// also lands here).
    case keysOutOfOrder
    /// Two distinct keys are the same key to Swift (Unicode-equivalent strings, `0.0` and `-0.0`).
    case duplicateKey
    /// A field holds a value outside its domain; `field` names it (a boolean that is not 0 or 1,
    /// an unknown protection class, a non-canonical duration…).
    case invalidField(String)

    public var description: String {
        switch self {
        case .unexpectedEnd: "a field runs past the end of the payload"
        case .trailingBytes(let count): "\(count) bytes follow the message"
        case .unknownMessage(let tag): "unknown message tag \(tag)"
        case .unknownValueTag(let tag): "unknown value tag \(tag)"
        case .countExceedsRemainingBytes(let count): "a count of \(count) exceeds the remaining bytes"
        case .nestingTooDeep(let limit): "values nest deeper than \(limit) levels"
        case .tooManyValues(let limit): "more than \(limit) values"
        case .invalidUTF8: "text is not valid UTF-8"
        case .keysOutOfOrder: "dictionary keys are not in canonical order"
        case .duplicateKey: "a dictionary key is repeated"
        case .invalidField(let field): "invalid \(field)"
        }
    }
}
