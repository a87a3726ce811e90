import Foundation
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// A CA certificate, a leaf key and certificate, and the PKCS#12 files `openssl pkcs12 -export` writes of them in
/// each form the tests read, made once per key kind (the `openssl` command is installed when missing). The
/// passphrase reaches openssl through the environment, never its command line.
struct OpenSSLPKCS12Files: Sendable {
    enum KeyKind: String, Sendable, CaseIterable {
        case rsa, p256
    }

    /// The forms written, by name: openssl's options after `-export`.
    static let forms: [String: [String]] = [
        "default": [],
        "legacy": ["-legacy"],
        "tripleDES": ["-keypbe", "PBE-SHA1-3DES", "-certpbe", "PBE-SHA1-3DES", "-macalg", "sha1"],
        "unencrypted": ["-keypbe", "NONE", "-certpbe", "NONE"],
        "twoKeyDESAndRC2": ["-legacy", "-keypbe", "PBE-SHA1-2DES", "-certpbe", "PBE-SHA1-RC2-128"],
        "rc4": ["-legacy", "-keypbe", "PBE-SHA1-RC4-128", "-certpbe", "PBE-SHA1-RC4-40"],
        "aes128SHA512": ["-keypbe", "AES-128-CBC", "-certpbe", "AES-128-CBC", "-macalg", "sha512"],
    ]

    /// The passphrase of every file but ``emptyPassphraseFile``; not ASCII, so that both of its encodings count.
    static let passphrase = "pässwörd ✓ 1"
    /// The friendly name given with `-name`.
    static let friendlyName = "Coffer Test Identity"

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let leafDER: Data
    let caDER: Data
    /// The leaf key as `openssl pkcs8 -topk8 -nocrypt -outform DER` writes it (PKCS#8).
    let keyPKCS8: Data
    /// The files by form name.
    let files: [String: Data]
    /// The default form with the empty passphrase.
    let emptyPassphraseFile: Data

    static let rsa = Result { try OpenSSLPKCS12Files(.rsa) }
    static let p256 = Result { try OpenSSLPKCS12Files(.p256) }

    static func of(_ kind: KeyKind) throws -> OpenSSLPKCS12Files {
        try (kind == .rsa ? rsa : p256).get()
    }

    private init(_ kind: KeyKind) throws {
        try DebianPackages.ensureInstalled(["openssl"])
        var template = Array("/tmp/coffer-pkcs12-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw Failure(description: "mkdtemp failed") }
        let folder = String(cString: created)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func path(_ name: String) -> String { "\(folder)/\(name)" }
        func read(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(name))) }
        func openssl(_ arguments: [String], passphrase: String? = nil) throws {
            var environment = ProcessInfo.processInfo.environment
            if let passphrase { environment["COFFER_P12_PASS"] = passphrase }
            let outcome = try ChildProcess.run(["/usr/bin/openssl"] + arguments, environment: environment)
            guard outcome.status == 0 else {
                throw Failure(description: "openssl \(arguments.joined(separator: " ")): \(outcome.errorText)")
            }
        }

        try openssl([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "30",
            "-subj", "/CN=Coffer PKCS12 Test CA", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
        switch kind {
        case .rsa: try openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", path("leaf.key")])
        case .p256: try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path("leaf.key")])
        }
        try openssl(["req", "-new", "-key", path("leaf.key"), "-subj", "/CN=leaf.example.com/O=Coffer", "-out", path("leaf.csr")])
        try openssl([
            "x509", "-req", "-in", path("leaf.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"), "-set_serial", "4660",
            "-days", "30", "-out", path("leaf.pem"),
        ])
        try openssl(["x509", "-in", path("leaf.pem"), "-outform", "DER", "-out", path("leaf.der")])
        try openssl(["x509", "-in", path("ca.pem"), "-outform", "DER", "-out", path("ca.der")])
        try openssl(["pkcs8", "-topk8", "-nocrypt", "-in", path("leaf.key"), "-outform", "DER", "-out", path("leaf.p8")])
        leafDER = try read("leaf.der")
        caDER = try read("ca.der")
        keyPKCS8 = try read("leaf.p8")

        let common = [
            "pkcs12", "-export", "-inkey", path("leaf.key"), "-in", path("leaf.pem"), "-certfile", path("ca.pem"),
            "-name", Self.friendlyName, "-passout", "env:COFFER_P12_PASS",
        ]
        var files: [String: Data] = [:]
        for (name, options) in Self.forms {
            try openssl(common + options + ["-out", path("\(name).p12")], passphrase: Self.passphrase)
            files[name] = try read("\(name).p12")
        }
        self.files = files
        try openssl(common + ["-out", path("empty.p12")], passphrase: "")
        emptyPassphraseFile = try read("empty.p12")
    }

    /// The file of form `name`.
    func file(_ name: String) throws -> Data {
        guard let file = files[name] else { throw Failure(description: "no form \(name)") }
        return file
    }
}
