import KeychainModel
import KeychainOperations
import DaemonProtocol
import Foundation
import Query
import Testing

/// Malformed payloads inside intact frames: each is refused with its typed reason.
@Suite("Payload strictness", .timeLimit(.minutes(10)))
struct PayloadStrictnessTests {
    static let id: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 7]

    static func u32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).bigEndian) { Array($0) } }

    static func string(_ text: String) -> [UInt8] { [0x03] + u32(text.utf8.count) + Array(text.utf8) }

    /// An `add` whose query dictionary's bytes are `body`.
    static func add(_ body: [UInt8]) -> Data { Data([MessageTag.add] + id + body) }

    /// A `value` response carrying `value`'s bytes.
    static func value(_ body: [UInt8]) -> Data { Data([MessageTag.value] + id + [1] + body) }

    static func requestError(_ payload: Data, limits: ProtocolLimits = .requests) -> ProtocolError? {
        do throws(ProtocolError) {
            _ = try RequestEnvelope(decodingPayload: payload, limits: limits)
            return nil
        } catch { return error }
    }

    static func responseError(_ payload: Data, limits: ProtocolLimits = .responses) -> ProtocolError? {
        do throws(ProtocolError) {
            _ = try ResponseEnvelope(decodingPayload: payload, limits: limits)
            return nil
        } catch { return error }
    }

    /// A prompt the daemon made shows no control character; one that holds any (a forged or mangled frame) is refused
    /// rather than shown with the lines it would add. The prompt made with the same text round-trips, escaped.
    @Test func aPromptWithControlCharactersIsRefused() throws {
        let frame = try ResponseEnvelope(
            id: 7, response: .prompt(Prompt(id: 3, purpose: .unlock, requester: "/tmp/x\nFirefox Sync (verified)"))
        ).encodedPayload()
        let decoded = try ResponseEnvelope(decodingPayload: frame)
        guard case .prompt(let prompt) = decoded.response else {
            Issue.record("not a prompt: \(decoded.response)")
            return
        }
        #expect(prompt.requester == "/tmp/x\\nFirefox Sync (verified)")
        // The same frame for "/tmp/x#Firefox…", its `#` then made a newline byte.
        var forged = try ResponseEnvelope(
            id: 7, response: .prompt(Prompt(id: 3, purpose: .unlock, requester: "/tmp/x#Firefox Sync (verified)"))
        ).encodedPayload()
        let marker = try #require(forged.firstIndex(of: UInt8(ascii: "#")))
        forged[marker] = 0x0A
        #expect(Self.responseError(forged) == .malformedPayload(.invalidField("prompt text with control characters")))
    }

    @Test func emptyAndShortPayloadsEndUnexpectedly() {
        #expect(Self.requestError(Data()) == .malformedPayload(.unexpectedEnd))
        #expect(Self.requestError(Data([MessageTag.lock, 0, 0])) == .malformedPayload(.unexpectedEnd))
        #expect(Self.requestError(Self.add([])) == .malformedPayload(.unexpectedEnd))
    }

    @Test func unknownMessageTagsAreRefused() {
        #expect(Self.requestError(Data([0x7F] + Self.id)) == .malformedPayload(.unknownMessage(0x7F)))
        // A response sent to the daemon is not a request, and the other way round.
        #expect(
            Self.requestError(Data([MessageTag.status] + Self.id + [0, 0, 0, 0]))
                == .malformedPayload(.unknownMessage(MessageTag.status)))
        #expect(
            Self.responseError(Data([MessageTag.lock] + Self.id)) == .malformedPayload(.unknownMessage(MessageTag.lock))
        )
    }

    @Test func trailingBytesAreRefused() throws {
        var payload = try RequestEnvelope(id: 1, request: .lock).encodedPayload()
        payload.append(0)
        #expect(Self.requestError(payload) == .malformedPayload(.trailingBytes(count: 1)))
        var response = try ResponseEnvelope(id: 1, response: .status(.success)).encodedPayload()
        response.append(contentsOf: [1, 2, 3])
        #expect(Self.responseError(response) == .malformedPayload(.trailingBytes(count: 3)))
    }

    @Test func unknownValueTagIsRefused() {
        #expect(Self.responseError(Self.value([0x0E])) == .malformedPayload(.unknownValueTag(0x0E)))
        #expect(Self.requestError(Self.add(Self.u32(1) + [0xFF, 0x00])) == .malformedPayload(.unknownValueTag(0xFF)))
    }

    @Test func overLongLengthsAreRefused() {
        #expect(Self.responseError(Self.value([0x04] + Self.u32(5) + [1, 2])) == .malformedPayload(.unexpectedEnd))
        #expect(Self.responseError(Self.value([0x03] + Self.u32(Int(UInt32.max)))) == .malformedPayload(.unexpectedEnd))
        #expect(
            Self.requestError(Data([MessageTag.unlock] + Self.id + Self.u32(100) + [1]))
                == .malformedPayload(.unexpectedEnd))
    }

    @Test func hugeCountsAreRefusedBeforeAllocating() {
        let huge = Int(UInt32.max)
        #expect(
            Self.responseError(Self.value([0x09] + Self.u32(huge)))
                == .malformedPayload(.countExceedsRemainingBytes(count: huge)))
        #expect(
            Self.responseError(Self.value([0x0A] + Self.u32(huge)))
                == .malformedPayload(.countExceedsRemainingBytes(count: huge)))
        #expect(
            Self.requestError(Self.add(Self.u32(huge))) == .malformedPayload(.countExceedsRemainingBytes(count: huge)))
        #expect(
            Self.responseError(Data([MessageTag.apps] + Self.id + Self.u32(huge)))
                == .malformedPayload(.countExceedsRemainingBytes(count: huge)))
        // An array of 4 claims more elements than its 3 remaining bytes can hold.
        #expect(
            Self.responseError(Self.value([0x09] + Self.u32(4) + [0, 0, 0]))
                == .malformedPayload(.countExceedsRemainingBytes(count: 4)))
    }

    @Test func tooManyValuesAreRefused() throws {
        let limits = ProtocolLimits(maximumPayloadLength: 1 << 20, maximumNestingDepth: 8, maximumValueCount: 1000)
        let nulls = Self.value([0x09] + Self.u32(1000) + Array(repeating: 0, count: 1000))
        #expect(Self.responseError(nulls, limits: limits) == .malformedPayload(.tooManyValues(limit: 1000)))
        let fewer = Self.value([0x09] + Self.u32(999) + Array(repeating: 0, count: 999))
        #expect(Self.responseError(fewer, limits: limits) == nil)
        let tooMany = ResponseEnvelope(id: 1, response: .value(.array(Array(repeating: .null, count: 1000))))
        #expect(throws: ProtocolError.malformedPayload(.tooManyValues(limit: 1000))) {
            try tooMany.encodedPayload(limits: limits)
        }
    }

    @Test func depthBombIsRefused() {
        // 100,000 nested one-element arrays: decoding stops at the limit instead of recursing.
        let level: [UInt8] = [0x09] + Self.u32(1)
        let bomb: [UInt8] = Array(Array(repeating: level, count: 100_000).joined()) + [0x00]
        #expect(Self.responseError(Self.value(bomb)) == .malformedPayload(.nestingTooDeep(limit: 32)))
        #expect(
            Self.requestError(Self.add(Self.u32(1) + Self.string("k") + bomb))
                == .malformedPayload(.nestingTooDeep(limit: 32)))
    }

    @Test func nestingUpToTheLimitIsAccepted() throws {
        func nested(_ levels: Int) -> KeychainValue { levels == 0 ? .null : .array([nested(levels - 1)]) }
        let deepest = ResponseEnvelope(id: 1, response: .value(nested(32)))
        #expect(try ResponseEnvelope(decodingPayload: try deepest.encodedPayload()) == deepest)
        #expect(throws: ProtocolError.malformedPayload(.nestingTooDeep(limit: 32))) {
            try ResponseEnvelope(id: 1, response: .value(nested(33))).encodedPayload()
        }
        // In a query, the dictionary itself is the first level.
        #expect(throws: ProtocolError.malformedPayload(.nestingTooDeep(limit: 32))) {
            try RequestEnvelope(id: 1, request: .add(["k": nested(32)])).encodedPayload()
        }
        let query = RequestEnvelope(id: 1, request: .add(["k": nested(31)]))
        #expect(try RequestEnvelope(decodingPayload: try query.encodedPayload()) == query)
    }

    /// An item reference: a known class code, canonical attributes, a presence byte of 0 or 1.
    @Test func itemReferencesAreStrict() {
        let attributes = Self.u32(1) + Self.u32(4) + Array("kcls".utf8) + [0x05] + [UInt8](repeating: 0, count: 7) + [1]
        let withData = [0x0D] + Self.u32(4) + Array("keys".utf8) + attributes + [1] + Self.u32(2) + [0x04, 0x01]
        #expect(Self.responseError(Self.value(withData)) == nil)
        #expect(Self.responseError(Self.value([0x0D] + Self.u32(4) + Array("keys".utf8) + Self.u32(0) + [0])) == nil)
        #expect(
            Self.responseError(Self.value([0x0D] + Self.u32(4) + Array("apls".utf8) + Self.u32(0) + [0]))
                == .malformedPayload(.invalidField("item class")))
        #expect(
            Self.responseError(Self.value([0x0D] + Self.u32(4) + Array("keys".utf8) + Self.u32(0) + [2]))
                == .malformedPayload(.invalidField("item reference data")))
        #expect(
            Self.responseError(Self.value([0x0D] + Self.u32(4) + Array("keys".utf8) + Self.u32(0) + [1] + Self.u32(3)))
                == .malformedPayload(.unexpectedEnd))
        let reversed =
            Self.u32(2) + Self.u32(1) + Array("b".utf8) + [0] + Self.u32(1) + Array("a".utf8) + [0]
        #expect(
            Self.responseError(Self.value([0x0D] + Self.u32(4) + Array("keys".utf8) + reversed + [0]))
                == .malformedPayload(.keysOutOfOrder))
    }

    /// A reference is one level of nesting, as the dictionary of its attributes is.
    @Test func itemReferencesCountAsANestingLevel() throws {
        func nested(_ levels: Int) -> KeychainValue { levels == 0 ? .null : .array([nested(levels - 1)]) }
        func reference(around value: KeychainValue) -> KeychainValue {
            .itemReference(ItemReference(itemClass: .key, attributes: ["k": value], data: nil))
        }
        let deepest = ResponseEnvelope(id: 1, response: .value(reference(around: nested(31))))
        #expect(try ResponseEnvelope(decodingPayload: try deepest.encodedPayload()) == deepest)
        #expect(throws: ProtocolError.malformedPayload(.nestingTooDeep(limit: 32))) {
            try ResponseEnvelope(id: 1, response: .value(reference(around: nested(32)))).encodedPayload()
        }
    }

    @Test func invalidUTF8IsRefused() {
        #expect(Self.responseError(Self.value([0x03] + Self.u32(2) + [0xC3, 0x28])) == .malformedPayload(.invalidUTF8))
        #expect(
            Self.responseError(Self.value([0x03] + Self.u32(3) + [0xED, 0xA0, 0x80])) == .malformedPayload(.invalidUTF8)
        )  // a surrogate
        #expect(
            Self.responseError(Self.value([0x0A] + Self.u32(1) + Self.u32(1) + [0xFF, 0x00]))
                == .malformedPayload(.invalidUTF8))
    }

    @Test func dictionaryKeysMustBeInCanonicalOrder() {
        let ordered = [0x0A] + Self.u32(2) + Self.u32(1) + Array("a".utf8) + [0] + Self.u32(1) + Array("b".utf8) + [0]
        #expect(Self.responseError(Self.value(ordered)) == nil)
        let reversed = [0x0A] + Self.u32(2) + Self.u32(1) + Array("b".utf8) + [0] + Self.u32(1) + Array("a".utf8) + [0]
        #expect(Self.responseError(Self.value(reversed)) == .malformedPayload(.keysOutOfOrder))
        let repeated = [0x0A] + Self.u32(2) + Self.u32(1) + Array("a".utf8) + [0] + Self.u32(1) + Array("a".utf8) + [1]
        #expect(Self.responseError(Self.value(repeated)) == .malformedPayload(.keysOutOfOrder))
        let queryReversed = Self.u32(2) + Self.string("b") + [0] + Self.string("a") + [0]
        #expect(Self.requestError(Self.add(queryReversed)) == .malformedPayload(.keysOutOfOrder))
    }

    /// "é" precomposed and decomposed are different bytes but the same Swift `String` key.
    @Test func unicodeEquivalentKeysAreDuplicates() {
        let decomposed = Array("e\u{301}".utf8)
        let precomposed = Array("\u{E9}".utf8)
        #expect(decomposed.lexicographicallyPrecedes(precomposed))
        let dictionary =
            [0x0A] + Self.u32(2) + Self.u32(decomposed.count) + decomposed + [0] + Self.u32(precomposed.count)
            + precomposed + [0]
        #expect(Self.responseError(Self.value(dictionary)) == .malformedPayload(.duplicateKey))
        // Query keys sort by their whole encoding, length first: the 2-byte precomposed key comes first.
        let query =
            Self.u32(2) + [0x03] + Self.u32(precomposed.count) + precomposed + [0] + [0x03] + Self.u32(decomposed.count)
            + decomposed + [0]
        #expect(Self.requestError(Self.add(query)) == .malformedPayload(.duplicateKey))
    }

    @Test func positiveAndNegativeZeroKeysAreDuplicates() {
        let zero = [0x06] + [UInt8](repeating: 0, count: 8)
        let negativeZero = [0x06, 0x80] + [UInt8](repeating: 0, count: 7)
        #expect(
            Self.requestError(Self.add(Self.u32(2) + zero + [0] + negativeZero + [0]))
                == .malformedPayload(.duplicateKey))
    }

    @Test func fieldsOutsideTheirDomainAreRefused() {
        #expect(
            Self.responseError(Data([MessageTag.value] + Self.id + [2])) == .malformedPayload(.invalidField("presence"))
        )
        #expect(
            Self.responseError(Self.value([0x0B, 5] + [UInt8](repeating: 0, count: 8)))
                == .malformedPayload(.invalidField("protection class")))
        #expect(
            Self.responseError(Data([MessageTag.keystoreError] + Self.id + [20]))
                == .malformedPayload(.invalidField("keystore error")))
        #expect(
            Self.requestError(Data([MessageTag.appsRemove] + Self.id + [3] + Self.u32(0)))
                == .malformedPayload(.invalidField("app selector")))
        let badPin = [MessageTag.appsAdd] + Self.id + Self.u32(0) + Self.u32(0) + Self.u32(0) + [2]
        #expect(Self.requestError(Data(badPin)) == .malformedPayload(.invalidField("hash pin")))
        let badMode = [MessageTag.appsAdd] + Self.id + Self.u32(0) + Self.u32(0) + Self.u32(0) + [0, 9]
        #expect(Self.requestError(Data(badMode)) == .malformedPayload(.invalidField("identity mode")))
        let badErase = [MessageTag.setEraseAfterFailedAttempts] + Self.id + [7] + Self.u32(0)
        #expect(Self.requestError(Data(badErase)) == .malformedPayload(.invalidField("erase setting")))
        let shortPasscode = [MessageTag.changePasscode] + Self.id + Self.u32(1) + [0x41] + Self.u32(2) + [0x42]
        #expect(Self.requestError(Data(shortPasscode)) == .malformedPayload(.unexpectedEnd))
        let badLockState = [MessageTag.lockStatusResult] + Self.id + [1, 4] + [UInt8](repeating: 0, count: 25)
        #expect(Self.responseError(Data(badLockState)) == .malformedPayload(.invalidField("lock state")))
    }

    /// Non-canonical durations are refused: one would have a second encoding, another would make
    /// `Duration.components` trap later.
    @Test(arguments: [(Int64(0), Int64(1_000_000_000_000_000_000)), (1, -1), (-1, 1), (.max, .max), (.min, .min)])
    func nonCanonicalDurationsAreRefused(seconds: Int64, attoseconds: Int64) {
        let fields =
            withUnsafeBytes(of: seconds.bigEndian) { Array($0) }
            + withUnsafeBytes(of: attoseconds.bigEndian) { Array($0) }
        #expect(
            Self.responseError(Data([MessageTag.keystoreError] + Self.id + [4] + fields))
                == .malformedPayload(.invalidField("duration")))
    }

    @Test func extremeCanonicalDurationsRoundTrip() throws {
        for duration in [
            Duration(secondsComponent: .max, attosecondsComponent: 999_999_999_999_999_999),
            Duration(secondsComponent: .min, attosecondsComponent: -999_999_999_999_999_999), .zero,
        ] {
            let envelope = ResponseEnvelope(id: 1, response: .keystoreError(.throttled(retryAfter: duration)))
            #expect(try ResponseEnvelope(decodingPayload: try envelope.encodedPayload()) == envelope)
        }
    }
}
