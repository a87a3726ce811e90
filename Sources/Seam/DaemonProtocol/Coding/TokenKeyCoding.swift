import KeychainModel
import KeychainOperations
import Query

/// The fields of the token-key requests and answer; layouts at ``MessageTag/createTokenKey``,
/// ``MessageTag/useTokenKey`` and ``MessageTag/tokenKey``.
enum TokenKeyCoding {
    static func encode(_ creation: TokenKeyCreation, into writer: inout WireWriter) {
        encode(creation.accessControl, into: &writer)
        writer.uint32(UInt32(clamping: creation.sizeInBits))
        writer.byte(creation.kind.rawValue)
        writer.bool(creation.tiedToItem)
    }

    static func decodeCreation(from reader: inout WireReader) throws(ProtocolError) -> TokenKeyCreation {
        let control = try decodeAccessControl(from: &reader)
        let size = Int(try reader.uint32())
        guard let kind = TokenKeyCreation.Kind(rawValue: try reader.byte()) else { throw .malformedPayload(.invalidField("token key kind")) }
        return TokenKeyCreation(accessControl: control, sizeInBits: size, kind: kind, tiedToItem: try reader.bool("tied to its item"))
    }

    static func encode(_ use: TokenKeyUse, into writer: inout WireWriter) throws(ProtocolError) {
        try writer.bytes(use.key)
        switch use.operation {
        case .sign: writer.byte(1)
        case .decrypt: writer.byte(2)
        case .keyExchange(let requestedSize, let sharedInfo):
            writer.byte(3)
            writer.bool(requestedSize != nil)
            if let requestedSize { writer.uint32(UInt32(clamping: requestedSize)) }
            writer.bool(sharedInfo != nil)
            if let sharedInfo { try writer.bytes(sharedInfo) }
        case .signWithContext(let context):
            writer.byte(4)
            try writer.bytes(context)
        case .decapsulate: writer.byte(5)
        case .checkSeal: writer.byte(6)
        }
        try writer.text(use.algorithm)
        try writer.bytes(use.input)
        writer.bool(use.authentication.context != nil)
        if let context = use.authentication.context { try writer.bytes(context.bytes) }
        try writer.text(use.authentication.prompt)
        writer.bool(use.authentication.interactive)
    }

    static func decodeUse(from reader: inout WireReader) throws(ProtocolError) -> TokenKeyUse {
        let key = try reader.data()
        let operation: TokenKeyUse.Operation
        switch try reader.byte() {
        case 1: operation = .sign
        case 2: operation = .decrypt
        case 3:
            let requestedSize = try reader.bool("requested size presence") ? Int(try reader.uint32()) : nil
            let sharedInfo = try reader.bool("shared info presence") ? try reader.data() : nil
            operation = .keyExchange(requestedSize: requestedSize, sharedInfo: sharedInfo)
        case 4: operation = .signWithContext(try reader.data())
        case 5: operation = .decapsulate
        case 6: operation = .checkSeal
        default: throw .malformedPayload(.invalidField("token key operation"))
        }
        let algorithm = try reader.text()
        let input = try reader.data()
        let context = try reader.bool("context presence") ? try AuthenticationCoding.decodeContext(from: &reader) : nil
        let prompt = try reader.text()
        let interactive = try reader.bool("interactive")
        return TokenKeyUse(
            key: key, operation: operation, algorithm: algorithm, input: input,
            authentication: TokenKeyAuthentication(context: context, prompt: prompt, interactive: interactive))
    }

    static func encode(_ key: TokenKey, into writer: inout WireWriter) throws(ProtocolError) {
        try writer.bytes(key.sealed)
        try writer.bytes(key.publicKey)
        encode(key.accessControl, into: &writer)
    }

    static func decodeKey(from reader: inout WireReader) throws(ProtocolError) -> TokenKey {
        let sealed = try reader.data()
        let publicKey = try reader.data()
        return TokenKey(sealed: sealed, publicKey: publicKey, accessControl: try decodeAccessControl(from: &reader))
    }

    private static func encode(_ control: AccessControl, into writer: inout WireWriter) {
        writer.protection(control.protection)
        writer.uint64(control.flags.rawValue)
    }

    private static func decodeAccessControl(from reader: inout WireReader) throws(ProtocolError) -> AccessControl {
        let protection = try reader.protection()
        return AccessControl(protection: protection, flags: AccessControlFlags(rawValue: try reader.uint64()))
    }
}
