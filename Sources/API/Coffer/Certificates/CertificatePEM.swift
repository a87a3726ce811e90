import Foundation

/// PEM for certificates (RFC 7468): the `CERTIFICATE` label, base64 in lines of 64.
enum CertificatePEM {
    /// The DER of the first `CERTIFICATE` block of `text`; nil when there is none or its base64 is broken.
    static func firstCertificate(in text: String) -> Data? {
        var inside = false
        var body = ""
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if !inside {
                inside = line == "-----BEGIN CERTIFICATE-----"
            } else if line == "-----END CERTIFICATE-----" {
                return Data(base64Encoded: body)
            } else {
                body += line
            }
        }
        return nil
    }

    /// `der` as PEM, with a final newline.
    static func encode(_ der: [UInt8]) -> String {
        let body = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n"
    }
}
