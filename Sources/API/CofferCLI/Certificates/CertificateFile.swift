import Foundation
import Security

/// The certificates of a file, as `import` and `verify-cert` read them: one DER certificate, or PEM text with one
/// or more `CERTIFICATE` blocks (in file order). PKCS#12 files are recognized: `import` reads them with
/// `SecPKCS12Import` (``PKCS12FileImport``), `verify-cert` refuses them.
enum CertificateFile {
    /// Why a file gives no certificates; the message names the file.
    enum Problem: Error {
        case unreadable(String)
        case pkcs12
        case notACertificate(String)

        /// The line after the command's name.
        func message(_ path: String) -> String {
            switch self {
            case .unreadable(let reason): "\(path): cannot be read: \(reason)"
            case .pkcs12: "\(path): is PKCS#12, which holds a private key; import it with coffer import, or give the certificate as PEM or DER"
            case .notACertificate(let reason): "\(path): not a certificate: \(reason)"
            }
        }
    }

    /// The certificates in the file at `path`; a failure names the file and the problem (exit 1).
    static func read(_ path: String, command: String) throws -> [SecCertificate] {
        let data = try contents(path, command: command)
        do {
            return try certificates(in: data, named: path)
        } catch {
            throw CLIFailure("\(command): \(error.message(path))")
        }
    }

    /// The bytes of the file at `path`; a failure names the file (exit 1).
    static func contents(_ path: String, command: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CLIFailure("\(command): \(Problem.unreadable((error as NSError).localizedDescription).message(path))")
        }
    }

    /// Whether the file is PKCS#12: a `.p12`/`.pfx` name, or DER that is a PKCS#12 `PFX`.
    static func isPKCS12(_ data: Data, named path: String) -> Bool {
        let lowered = path.lowercased()
        return lowered.hasSuffix(".p12") || lowered.hasSuffix(".pfx") || isPFX(data)
    }

    /// The certificates `data` holds: PEM `CERTIFICATE` blocks when it has any PEM boundary, else one DER
    /// certificate. PKCS#12 (``isPKCS12(_:named:)``) is ``Problem/pkcs12``: `import` reads it on its own.
    static func certificates(in data: Data, named path: String) throws(Problem) -> [SecCertificate] {
        if isPKCS12(data, named: path) { throw .pkcs12 }
        if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN ") {
            return try pemCertificates(text)
        }
        guard let certificate = SecCertificateCreateWithData(nil, data as CFData) else {
            throw .notACertificate(data.isEmpty ? "the file is empty" : "neither PEM nor a DER X.509 certificate")
        }
        return [certificate]
    }

    /// The `CERTIFICATE` blocks of PEM text, each a DER certificate.
    private static func pemCertificates(_ text: String) throws(Problem) -> [SecCertificate] {
        var certificates: [SecCertificate] = []
        var otherLabels: [String] = []
        var label: String?
        var body = ""
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if label == nil, line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") {
                label = String(line.dropFirst("-----BEGIN ".count).dropLast(5))
                body = ""
            } else if let current = label, line == "-----END \(current)-----" {
                label = nil
                guard current == "CERTIFICATE" else {
                    if current == "PKCS12" { throw .pkcs12 }
                    otherLabels.append(current)
                    continue
                }
                guard let der = Data(base64Encoded: body),
                    let certificate = SecCertificateCreateWithData(nil, der as CFData)
                else { throw .notACertificate("CERTIFICATE block \(certificates.count + 1) is not a DER X.509 certificate") }
                certificates.append(certificate)
            } else if label != nil {
                body += line
            }
        }
        if let label { throw .notACertificate("the \(label) block has no END line") }
        if certificates.isEmpty {
            throw .notACertificate("no CERTIFICATE block (found \(otherLabels.isEmpty ? "none" : otherLabels.joined(separator: ", ")))")
        }
        return certificates
    }

    /// Whether `data` starts as a PKCS#12 `PFX` does (RFC 7292): `SEQUENCE { INTEGER 3, SEQUENCE { OID
    /// pkcs7-data or pkcs7-signedData, … } … }`.
    static func isPFX(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(64))
        guard bytes.first == 0x30, var index = contentStart(bytes, at: 0) else { return false }
        guard bytes.count > index + 3, bytes[index] == 0x02, bytes[index + 1] == 0x01, bytes[index + 2] == 0x03 else { return false }
        index += 3
        guard bytes.count > index, bytes[index] == 0x30, let contentInfo = contentStart(bytes, at: index) else { return false }
        let pkcs7: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07]
        guard bytes.count > contentInfo + pkcs7.count else { return false }
        let kind = bytes[contentInfo + pkcs7.count]
        return Array(bytes[contentInfo..<contentInfo + pkcs7.count]) == pkcs7 && (kind == 0x01 || kind == 0x02)
    }

    /// The index of the content of the DER element whose tag is at `tagIndex` (definite lengths up to 4 bytes).
    private static func contentStart(_ bytes: [UInt8], at tagIndex: Int) -> Int? {
        guard bytes.count > tagIndex + 1 else { return nil }
        let first = bytes[tagIndex + 1]
        if first < 0x80 { return tagIndex + 2 }
        let count = Int(first & 0x7F)
        guard (1...4).contains(count) else { return nil }
        return tagIndex + 2 + count
    }

    /// `der` as PEM, as `openssl x509` and `security find-certificate -p` write it: base64 in lines of 64.
    static func pem(_ der: Data) -> String {
        let base64 = der.base64EncodedString()
        var lines: [Substring] = []
        var start = base64.startIndex
        while start < base64.endIndex {
            let end = base64.index(start, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(base64[start..<end])
            start = end
        }
        return "-----BEGIN CERTIFICATE-----\n" + lines.joined(separator: "\n") + "\n-----END CERTIFICATE-----\n"
    }
}
