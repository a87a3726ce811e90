import KeychainModel
import KeychainOperations
import Query

/// The fields of the authentication requests and answers; layouts at ``MessageTag/authenticate`` and
/// ``MessageTag/authenticationCapabilities``.
enum AuthenticationCoding {
    static func encode(_ request: AuthenticationRequest, into writer: inout WireWriter) throws(ProtocolError) {
        try writer.bytes(request.context.bytes)
        try encode(request.requirement, into: &writer)
        try writer.text(request.reason)
        writer.duration(request.reuseDuration)
        writer.bool(request.interactive)
    }

    static func encode(_ requirement: AuthenticationRequirement, into writer: inout WireWriter) throws(ProtocolError) {
        try writer.count(requirement.factors.count)
        for factor in requirement.factors {
            try writer.countValue()
            writer.byte(factor.rawValue)
        }
        writer.bool(requirement.needsAll)
        writer.bool(requirement.boundBiometrySet != nil)
        if let set = requirement.boundBiometrySet { try writer.bytes(set) }
    }

    static func decodeRequest(from reader: inout WireReader) throws(ProtocolError) -> AuthenticationRequest {
        let context = try decodeContext(from: &reader)
        let requirement = try decodeRequirement(from: &reader)
        let reason = try reader.text()
        let reuse = try reader.duration()
        return AuthenticationRequest(
            context: context, requirement: requirement, reason: reason, reuseDuration: reuse,
            interactive: try reader.bool("interactive"))
    }

    static func decodeRequirement(from reader: inout WireReader) throws(ProtocolError) -> AuthenticationRequirement {
        let count = try reader.count(minimumElementSize: 1)
        var factors: [AuthenticationRequirement.Factor] = []
        for _ in 0..<count {
            try reader.countValue()
            guard let factor = AuthenticationRequirement.Factor(rawValue: try reader.byte()) else {
                throw .malformedPayload(.invalidField("authentication factor"))
            }
            factors.append(factor)
        }
        let needsAll = try reader.bool("needs all")
        let bound = try reader.bool("bound set presence") ? [UInt8](try reader.data()) : nil
        return AuthenticationRequirement(factors: factors, needsAll: needsAll, boundBiometrySet: bound)
    }

    static func decodeContext(from reader: inout WireReader) throws(ProtocolError) -> AuthenticationContextID {
        guard let context = AuthenticationContextID(bytes: try reader.data()) else {
            throw .malformedPayload(.invalidField("authentication context"))
        }
        return context
    }

    static func encode(_ capabilities: AuthenticationCapabilities, into writer: inout WireWriter) throws(ProtocolError) {
        writer.bool(capabilities.passcodeSet)
        switch capabilities.biometry {
        case .notAvailable(let reason):
            writer.byte(1)
            try writer.text(reason)
        case .notEnrolled:
            writer.byte(2)
        case .available(let domainState):
            writer.byte(3)
            try writer.bytes(domainState)
        }
    }

    static func decodeCapabilities(from reader: inout WireReader) throws(ProtocolError) -> AuthenticationCapabilities {
        let passcodeSet = try reader.bool("passcode set")
        let biometry: BiometryState
        switch try reader.byte() {
        case 1: biometry = .notAvailable(reason: try reader.text())
        case 2: biometry = .notEnrolled
        case 3: biometry = .available(domainState: [UInt8](try reader.data()))
        default: throw .malformedPayload(.invalidField("biometry state"))
        }
        return AuthenticationCapabilities(passcodeSet: passcodeSet, biometry: biometry)
    }
}
