import Foundation
import KeychainOperations

/// A ``Request`` with the identifier its ``ResponseEnvelope`` repeats, and its wire form.
///
/// Payload layout: the message tag (one byte, `0x01`–`0x22`, see ``MessageTag``), the identifier
/// (UInt64 big-endian), then the request's fields. Nothing may follow.
public struct RequestEnvelope: Sendable, Equatable {
    /// Chosen by the client; the daemon copies it into the response.
    public var id: UInt64
    /// The request.
    public var request: Request

    /// An envelope.
    public init(id: UInt64, request: Request) {
        self.id = id
        self.request = request
    }

    /// Decodes a frame's payload; throws ``ProtocolError/malformedPayload(_:)`` for anything but exactly one
    /// canonical request within `limits`.
    public init(decodingPayload payload: Data, limits: ProtocolLimits = .requests) throws(ProtocolError) {
        (id, request) = try decodeEnvelope(payload, limits: limits) { tag, reader throws(ProtocolError) in
            try RequestCoding.decode(tag: tag, from: &reader)
        }
    }

    /// The payload; throws when the request exceeds `limits`, which the daemon would refuse (map that to
    /// `errSecParam`, -50, as `SizeLimits` does).
    public func encodedPayload(limits: ProtocolLimits = .requests) throws(ProtocolError) -> Data {
        var writer = WireWriter(limits: limits)
        try RequestCoding.encode(request, id: id, into: &writer)
        return try writer.payload()
    }

    /// The payload in a frame, ready to write to the socket.
    public func encodedFrame(limits: ProtocolLimits = .requests) throws(ProtocolError) -> Data {
        var writer = WireWriter(limits: limits)
        try RequestCoding.encode(request, id: id, into: &writer)
        return try writer.frame()
    }
}

/// A ``Response`` with the identifier of the request it answers, and its wire form.
///
/// Payload layout: the message tag (one byte, `0x81`–`0x86`, see ``MessageTag``), the identifier
/// (UInt64 big-endian), then the response's fields. Nothing may follow.
public struct ResponseEnvelope: Sendable, Equatable {
    /// The identifier of the request this answers.
    public var id: UInt64
    /// The response.
    public var response: Response

    /// An envelope.
    public init(id: UInt64, response: Response) {
        self.id = id
        self.response = response
    }

    /// Decodes a frame's payload; throws ``ProtocolError/malformedPayload(_:)`` for anything but exactly one
    /// canonical response within `limits`.
    public init(decodingPayload payload: Data, limits: ProtocolLimits = .responses) throws(ProtocolError) {
        (id, response) = try decodeEnvelope(payload, limits: limits) { tag, reader throws(ProtocolError) in
            try ResponseCoding.decode(tag: tag, from: &reader)
        }
    }

    /// The payload; throws when the response exceeds `limits`, which the client would refuse (the daemon then
    /// answers `.status(.allocate)` instead).
    public func encodedPayload(limits: ProtocolLimits = .responses) throws(ProtocolError) -> Data {
        var writer = WireWriter(limits: limits)
        try ResponseCoding.encode(response, id: id, into: &writer)
        return try writer.payload()
    }

    /// The payload in a frame, ready to write to the socket.
    public func encodedFrame(limits: ProtocolLimits = .responses) throws(ProtocolError) -> Data {
        var writer = WireWriter(limits: limits)
        try ResponseCoding.encode(response, id: id, into: &writer)
        return try writer.frame()
    }
}

/// A payload's envelope: the message's tag, the request identifier, then the message, which `message` reads for that
/// tag, and nothing after it.
private func decodeEnvelope<Message>(
    _ payload: Data, limits: ProtocolLimits, message: (UInt8, inout WireReader) throws(ProtocolError) -> Message
) throws(ProtocolError) -> (UInt64, Message) {
    try WireReader.read(payload, limits: limits) { reader throws(ProtocolError) in
        let tag = try reader.byte()
        let id = try reader.uint64()
        let decoded = try message(tag, &reader)
        try reader.finish()
        return (id, decoded)
    }
}
