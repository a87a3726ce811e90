import Foundation
import KeychainClient
import KeychainModel
import Security

/// `import FILE.p12`: the identities of a PKCS#12 file (`SecPKCS12Import`), each added as `SecItemAdd` with
/// `kSecValueRef` = the identity adds one (its certificate, then its key), then the rest of its chain as certificate
/// items.
///
/// The passphrase is read from the terminal without echo, or from standard input when it is not a terminal (one
/// line), never from an argument. `SecPKCS12Import` takes it as a string, so that copy cannot be zeroized; the
/// bytes read are held in zeroizing storage.
struct PKCS12FileImport {
    /// The file's path, for messages.
    let path: String
    /// The file's bytes.
    let data: Data
    /// `-l`: the label of the identity's certificate and key.
    let label: String?

    func run(command: String) throws {
        let secret: SecretBytes
        do {
            secret = try CLIFailure.reporting {
                try PasscodeInput().existing("Passphrase for \(URL(fileURLWithPath: path).lastPathComponent)")
            }
        } catch let failure as CLIFailure {
            throw CLIFailure("\(command): \(failure.message)", exitCode: failure.exitCode)
        }
        let client = try ItemCommandSupport.client(command: command)
        let items = try imported(secret, command: command)
        try KeyCalls.using(client) {
            for item in items {
                try add(item, command: command)
            }
        }
    }

    /// `SecPKCS12Import`'s items; a wrong passphrase and an unreadable file are named as such.
    private func imported(_ secret: SecretBytes, command: String) throws -> [[String: Any]] {
        let passphrase = secret.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        var items: CFArray?
        let options: [String: Any] = [kSecImportExportPassphrase as String: passphrase]
        let status = SecPKCS12Import(data as CFData, options as CFDictionary, &items)
        switch status {
        case errSecSuccess: break
        case errSecAuthFailed:
            throw CLIFailure(
                "\(command): \(path): the passphrase is wrong, or the file was altered (errSecAuthFailed, -25293); nothing was imported",
                exitCode: ItemCommandSupport.exitCode(for: .authFailed))
        case errSecDecode:
            throw CLIFailure(
                "\(command): \(path): cannot be read as PKCS#12 (errSecDecode, -26275): not a PKCS#12 file, or one whose encryption or key type is not supported; nothing was imported",
                exitCode: ItemCommandSupport.exitCode(for: .decode))
        default:
            throw CertificateCalls.failure(command, status)
        }
        let found = (items as? [[String: Any]]) ?? []
        guard !found.isEmpty else {
            throw CLIFailure("\(command): \(path): holds no private key with its certificate; nothing was imported")
        }
        return found
    }

    /// Adds one imported identity, then the other certificates of its chain (those already stored are left as they are).
    private func add(_ item: [String: Any], command: String) throws {
        guard let identity = item[kSecImportItemIdentity as String] as? SecIdentity else {
            throw CLIFailure("\(command): \(path): an imported item has no identity")
        }
        var attributes: [String: Any] = [kSecValueRef as String: identity]
        if let label { attributes[kSecAttrLabel as String] = label }
        let status = SecItemAdd(attributes as CFDictionary, nil)
        guard status == errSecSuccess else { throw CertificateCalls.failure(command, status) }
        var certificate: SecCertificate?
        _ = SecIdentityCopyCertificate(identity, &certificate)
        print("imported identity \"\(ControlCharacterEscaping.escaped(certificate.flatMap(SecCertificateCopySubjectSummary).map { String($0) } ?? ""))\"")
        let chain = (item[kSecImportItemCertChain as String] as? [SecCertificate]) ?? []
        for other in chain where other != certificate {
            let summary = SecCertificateCopySubjectSummary(other).map { String($0) } ?? ""
            let added = SecItemAdd([kSecClass as String: kSecClassCertificate, kSecValueRef as String: other] as CFDictionary, nil)
            switch added {
            case errSecSuccess: print("imported certificate \"\(ControlCharacterEscaping.escaped(summary))\"")
            case errSecDuplicateItem: print("certificate \"\(ControlCharacterEscaping.escaped(summary))\" is already in the keychain")
            default: throw CertificateCalls.failure(command, added)
            }
        }
    }
}
