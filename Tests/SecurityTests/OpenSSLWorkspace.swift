import Foundation
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// A 0700 folder in which tests run the `openssl` command (installed when missing) to make keys and certificates;
/// ``remove()`` deletes it. In arguments, `@name` stands for the file `name` in the folder.
struct OpenSSLWorkspace {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let folder: String

    init() throws {
        try DebianPackages.ensureInstalled(["openssl"])
        var template = Array("/tmp/coffer-certificates-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw Failure(description: "mkdtemp failed") }
        folder = String(cString: created)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    func path(_ name: String) -> String { "\(folder)/\(name)" }

    /// `argument`, with `@name` replaced by the path of `name` in the folder.
    func inFolder(_ argument: String) -> String { argument.hasPrefix("@") ? path(String(argument.dropFirst())) : argument }

    /// Runs `openssl` with `arguments` and returns its standard output; throws with its standard error when it fails.
    @discardableResult
    func openssl(_ arguments: [String]) throws -> Data {
        let outcome = try ChildProcess.run(["/usr/bin/openssl"] + arguments.map(inFolder))
        guard outcome.status == 0 else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")): \(outcome.errorText)")
        }
        return outcome.output
    }

    @discardableResult
    func openssl(_ arguments: String...) throws -> Data { try openssl(arguments) }

    /// Writes `text` to the file `name` (mode 0600).
    func write(_ name: String, _ text: String) throws {
        guard FileManager.default.createFile(atPath: path(name), contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw Failure(description: "cannot write \(name)")
        }
    }

    /// The contents of the file `name`.
    func read(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path(name)))
    }

    /// The DER of the PEM certificate in the file `name`.pem.
    func certificateDER(_ name: String) throws -> Data {
        try openssl("x509", "-in", "@\(name).pem", "-outform", "DER", "-out", "@\(name).der")
        return try read("\(name).der")
    }
}
