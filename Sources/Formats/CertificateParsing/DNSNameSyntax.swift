/// Apple's `SecFrameworkIsDNSName` (`OSX/sec/Security/SecCertificate.c`): whether a string is shaped like a DNS
/// name (RFC 1035 letters, digits and hyphens, with `*` and `_` allowed), as used for the subject summary's
/// fallback. Pure.
///
/// At most 255 characters; labels of at most 63 characters separated by dots; a label does not start with a
/// hyphen; the name does not end with a dot or a hyphen; and its last label contains a letter or `*`.
enum DNSNameSyntax {
    static func isDNSName(_ name: String) -> Bool {
        enum State { case initial, afterDot, afterAlpha, afterDigit, afterDash }
        let characters = Array(name.utf16)
        guard characters.count <= 255 else { return false }
        var state = State.initial
        var labelLength = 0
        var labelHasAlpha = false
        for character in characters {
            labelLength += 1
            switch character {
            case UInt16(UInt8(ascii: ".")):
                guard labelLength <= 64, state == .afterAlpha || state == .afterDigit else { return false }
                state = .afterDot
                labelHasAlpha = false
                labelLength = 0
            case UInt16(UInt8(ascii: "A"))...UInt16(UInt8(ascii: "Z")), UInt16(UInt8(ascii: "a"))...UInt16(UInt8(ascii: "z")),
                UInt16(UInt8(ascii: "*")):
                state = .afterAlpha
                labelHasAlpha = true
            case UInt16(UInt8(ascii: "0"))...UInt16(UInt8(ascii: "9")):
                state = .afterDigit
            case UInt16(UInt8(ascii: "-")):
                guard state == .afterAlpha || state == .afterDigit || state == .afterDash else { return false }
                state = .afterDash
            case UInt16(UInt8(ascii: "_")):
                state = .afterAlpha
            default:
                return false
            }
        }
        return labelLength <= 63 && (state == .afterAlpha || state == .afterDigit) && labelHasAlpha
    }
}
