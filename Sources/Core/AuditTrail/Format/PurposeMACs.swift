import Crypto

/// The chaining key's HMAC-SHA256, keyed once per journal and given the prefix of each purpose (its name, padded with
/// zeros to one 64-byte block): what each MAC of that purpose starts from, so that a MAC costs the blocks of its
/// message and the outer block only. A copy shares the state until it is updated.
struct PurposeMACs: Sendable {
    /// What a MAC authenticates; its prefix keeps a value of one purpose from standing for another's.
    enum Purpose: String, CaseIterable {
        case segment = "coffer audit segment v2"
    }

    private let started: [HMAC<SHA256>]

    init(key: SymmetricKey) {
        started = Purpose.allCases.map { purpose in
            var mac = HMAC<SHA256>(key: key)
            let name = Array(purpose.rawValue.utf8)
            mac.update(data: name + Array(repeating: 0, count: 64 - name.count))
            return mac
        }
    }

    /// The MAC of `message` for `purpose`: `HMAC(key, name ‖ zeros to 64 bytes ‖ message)`.
    func mac(_ purpose: Purpose, _ message: UnsafeRawBufferPointer) -> [UInt8] {
        var mac = started[Purpose.allCases.firstIndex(of: purpose)!]
        mac.update(data: message)
        return mac.finalize().withUnsafeBytes { Array($0) }
    }
}
