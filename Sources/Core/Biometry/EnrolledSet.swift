import Crypto

/// A user's enrolled fingers as fprintd lists them, and the hash that identifies the set.
///
/// The hash is SHA-256 over a canonical encoding: a version label, then the user name and each distinct
/// finger name in byte order, each preceded by its length (4 bytes, big-endian), the fingers by their
/// count. The same set gives the same hash whatever order fprintd lists it in; enrolling or deleting a
/// finger changes it.
///
/// Limitation: fprintd's API names enrolled fingers ("right-index-finger"), nothing more. Deleting a
/// finger and enrolling the same finger name again (even another person's finger) gives the same set,
/// and so the same hash: that change is not visible through fprintd. Nor is a change of reader with the
/// same finger names enrolled.
struct EnrolledSet: Sendable, Hashable {
    /// The label that starts the hashed encoding; a new encoding gets a new label.
    static let encodingLabel = "coffer.biometry.enrolled-set.v1"

    /// The user the fingers are enrolled for.
    let user: String
    /// The distinct finger names, in byte order.
    let fingers: [String]

    /// The set of `fingers` (in any order, repeats ignored) enrolled for `user`.
    init(user: String, fingers: [String]) {
        self.user = user
        self.fingers = Set(fingers).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The 32-byte SHA-256 of the canonical encoding.
    var hash: [UInt8] {
        var encoding = Array(Self.encodingLabel.utf8)
        Self.appendField(Array(user.utf8), to: &encoding)
        Self.appendLength(fingers.count, to: &encoding)
        for finger in fingers { Self.appendField(Array(finger.utf8), to: &encoding) }
        return Array(SHA256.hash(data: encoding))
    }

    private static func appendField(_ bytes: [UInt8], to encoding: inout [UInt8]) {
        appendLength(bytes.count, to: &encoding)
        encoding.append(contentsOf: bytes)
    }

    private static func appendLength(_ length: Int, to encoding: inout [UInt8]) {
        let value = UInt32(truncatingIfNeeded: length)
        encoding.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) })
    }
}
