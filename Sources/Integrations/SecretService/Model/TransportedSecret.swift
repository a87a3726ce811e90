import Foundation

/// A secret as the Secret Service API carries it (`(oayays)`): the session it is encoded for, the
/// algorithm's parameters (an AES IV, or empty for `plain`), the value (encrypted, or as is for `plain`) and
/// its content type.
struct TransportedSecret: Sendable {
    /// The session's object path.
    var session: String
    /// The algorithm's parameters.
    var parameters: Data
    /// The value, encoded for the session.
    var value: Data
    /// The content type, such as `text/plain`.
    var contentType: String
}
