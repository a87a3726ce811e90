import Foundation
import KeychainModel

extension AuditRecord {
    /// Why bytes are not a record.
    public struct Malformed: Error, Sendable, Equatable {
        public let reason: String
    }

    private static let version: UInt8 = 1

    /// The record's bytes (its sequence number is the journal's, kept beside them): a version, then each field
    /// in order, strings and byte strings length-prefixed, integers big-endian.
    public func encoded() -> [UInt8] {
        var out = AuditBytes.Writer()
        out.byte(Self.version)
        out.int64(Int64((time.timeIntervalSince1970 * 1000).rounded()))
        out.byte(event.rawValue)
        out.string(operation)
        out.uint32(caller.uid)
        out.uint32(UInt32(bitPattern: caller.pid))
        out.optional(caller.program)
        switch caller.kind {
        case .thisProcess: out.byte(1)
        case .identityGroup(let gid):
            out.byte(2)
            out.uint32(gid)
        case .registeredPath: out.byte(3)
        case .unregistered: out.byte(4)
        case .trustedFrontEnd: out.byte(5)
        case .person: out.byte(6)
        case .keychain: out.byte(7)
        case .systemdUnit: out.byte(8)
        }
        out.uint32(UInt32(accessGroups.count))
        for group in accessGroups { out.string(group) }
        out.optional(itemClass)
        out.uint32(UInt32(items.count))
        for item in items { out.bytes(item) }
        out.uint32(UInt32(bitPattern: status))
        out.optional(detail)
        return out.result
    }

    /// The record `bytes` encode, numbered `sequence`.
    public init(decoding bytes: [UInt8], sequence: UInt64) throws(Malformed) {
        var input = AuditBytes.Reader(bytes)
        guard try input.byte() == Self.version else { throw Malformed(reason: "an audit record of an unknown version") }
        let milliseconds = try input.int64()
        guard let event = Event(rawValue: try input.byte()) else { throw Malformed(reason: "an unknown audit event") }
        let operation = try input.string()
        let uid = try input.uint32()
        let pid = Int32(bitPattern: try input.uint32())
        let program = try input.optional()
        let kind: CallerIdentity.Kind
        switch try input.byte() {
        case 1: kind = .thisProcess
        case 2: kind = .identityGroup(gid: try input.uint32())
        case 3: kind = .registeredPath
        case 4: kind = .unregistered
        case 5: kind = .trustedFrontEnd
        case 6: kind = .person
        case 7: kind = .keychain
        case 8: kind = .systemdUnit
        default: throw Malformed(reason: "an unknown caller identity")
        }
        var groups: [String] = []
        for _ in 0..<(try input.count()) { groups.append(try input.string()) }
        let itemClass = try input.optional()
        var items: [Data] = []
        for _ in 0..<(try input.count()) { items.append(Data(try input.bytes())) }
        let status = Int32(bitPattern: try input.uint32())
        let detail = try input.optional()
        guard input.isAtEnd else { throw Malformed(reason: "bytes after an audit record") }
        self.init(
            sequence: sequence, time: Date(timeIntervalSince1970: Double(milliseconds) / 1000), event: event, operation: operation,
            caller: CallerIdentity(uid: uid, pid: pid, program: program, kind: kind), accessGroups: groups, itemClass: itemClass, items: items,
            status: status, detail: detail)
    }
}

/// The few encodings an audit record needs.
enum AuditBytes {
    struct Writer {
        private(set) var result: [UInt8]

        /// A writer with room for `capacity` bytes before it grows.
        init(capacity: Int = 256) {
            result = []
            result.reserveCapacity(capacity)
        }

        mutating func byte(_ value: UInt8) { result.append(value) }
        mutating func uint32(_ value: UInt32) {
            for shift in stride(from: 24, through: 0, by: -8) { result.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
        }
        mutating func int64(_ value: Int64) {
            let bits = UInt64(bitPattern: value)
            for shift in stride(from: 56, through: 0, by: -8) { result.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        }
        mutating func bytes(_ value: [UInt8]) {
            uint32(UInt32(value.count))
            result.append(contentsOf: value)
        }
        mutating func bytes(_ value: Data) {
            uint32(UInt32(value.count))
            result.append(contentsOf: value)
        }
        mutating func string(_ value: String) {
            uint32(UInt32(value.utf8.count))
            result.append(contentsOf: value.utf8)
        }
        mutating func optional(_ value: String?) {
            guard let value else { return byte(0) }
            byte(1)
            string(value)
        }
    }

    struct Reader {
        private let input: [UInt8]
        private var offset = 0
        /// Lists and strings longer than this are not a record's.
        private static let largest = 1 << 20

        init(_ input: [UInt8]) { self.input = input }

        var isAtEnd: Bool { offset == input.count }

        mutating func byte() throws(AuditRecord.Malformed) -> UInt8 {
            guard offset < input.count else { throw AuditRecord.Malformed(reason: "an audit record cut short") }
            defer { offset += 1 }
            return input[offset]
        }
        mutating func uint32() throws(AuditRecord.Malformed) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 { value = value << 8 | UInt32(try byte()) }
            return value
        }
        mutating func int64() throws(AuditRecord.Malformed) -> Int64 {
            var value: UInt64 = 0
            for _ in 0..<8 { value = value << 8 | UInt64(try byte()) }
            return Int64(bitPattern: value)
        }
        mutating func count() throws(AuditRecord.Malformed) -> Int {
            let count = Int(try uint32())
            guard count <= Self.largest, count <= input.count - offset else { throw AuditRecord.Malformed(reason: "an audit record's length is out of range") }
            return count
        }
        mutating func bytes() throws(AuditRecord.Malformed) -> [UInt8] {
            let count = try count()
            defer { offset += count }
            return Array(input[offset..<offset + count])
        }
        mutating func string() throws(AuditRecord.Malformed) -> String {
            guard let text = String(validating: try bytes(), as: UTF8.self) else { throw AuditRecord.Malformed(reason: "an audit record's text is not UTF-8") }
            return text
        }
        mutating func optional() throws(AuditRecord.Malformed) -> String? {
            switch try byte() {
            case 0: return nil
            case 1: return try string()
            default: throw AuditRecord.Malformed(reason: "an audit record's optional field is malformed")
            }
        }
    }
}
