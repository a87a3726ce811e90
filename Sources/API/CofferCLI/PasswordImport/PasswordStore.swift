import Foundation

/// The standard Unix password store (`pass`): a folder of `.gpg` files, each decrypted with the user's own gpg
/// (and its agent, which asks for the key's passphrase). The first line is the password; `login:`, `username:`,
/// `user:` or `email:` give the account, `url:` or `website:` the site; other lines are the notes, except
/// `otpauth://` lines (TOTP seeds), which are left out and listed. The entry's path is its name.
enum PasswordStore {
    /// The store's folder: `$PASSWORD_STORE_DIR`, else `~/.password-store`.
    static func defaultFolder(environment: [String: String]) -> String {
        if let folder = environment["PASSWORD_STORE_DIR"], !folder.isEmpty { return folder }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.password-store"
    }

    static func read(folder: String, environment: [String: String], progress: (Int, Int) -> Void) throws -> ImportSource {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw CLIFailure("import: \(folder) is not a password store folder (set PASSWORD_STORE_DIR, or name the folder)")
        }
        let entries = try entryPaths(in: folder)
        guard let gpg = SpawnedExecutable.onPath("gpg", environment: environment) else {
            throw CLIFailure("import: gpg is not installed; the password store is decrypted with it")
        }
        var source = ImportSource()
        for (index, relative) in entries.enumerated() {
            let name = String(relative.dropLast(4))
            switch decrypt(folder + "/" + relative, gpg: gpg) {
            case .success(let plaintext):
                add(plaintext, name: name, to: &source)
            case .failure(let failure):
                source.unreadable.append(ImportNote(entry: name, reason: failure.reason))
            }
            progress(index + 1, entries.count)
        }
        return source
    }

    /// The `.gpg` files under `folder`, relative, sorted; `.git` and `.extensions` are not entries.
    static func entryPaths(in folder: String) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else {
            throw CLIFailure("import: cannot read the password store \(folder)")
        }
        var paths: [String] = []
        while let path = walker.nextObject() as? String {
            if path == ".git" || path == ".extensions" {
                walker.skipDescendants()
                continue
            }
            if path.hasSuffix(".gpg") { paths.append(path) }
        }
        return paths.sorted()
    }

    /// One entry's lines as a login; a TOTP seed is noted as left out.
    static func add(_ plaintext: Data, name: String, to source: inout ImportSource) {
        let text = String(decoding: plaintext, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0.hasSuffix("\r") ? $0.dropLast() : $0[...]) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let password = lines.first, !password.isEmpty else {
            source.leftOut.append(ImportNote(entry: name, reason: "no password on its first line"))
            return
        }
        var username = ""
        var urls: [String] = []
        var notes: [String] = []
        var leftOutSeed = false
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let key = parts.count == 2 ? parts[0].lowercased() : ""
            if line.lowercased().hasPrefix("otpauth://") {
                leftOutSeed = true
            } else if ["login", "username", "user", "email"].contains(key), username.isEmpty {
                username = parts[1]
            } else if ["url", "website"].contains(key) {
                urls.append(parts[1])
            } else {
                notes.append(line)
            }
        }
        if leftOutSeed {
            source.leftOut.append(ImportNote(entry: name, reason: "imported without its TOTP seed (Coffer keeps no one-time-password seeds)"))
        }
        let joined = notes.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        source.logins.append(
            ImportedLogin(
                title: name, username: username, password: Data(password.utf8), urls: urls, notes: joined.isEmpty ? nil : joined))
    }

    /// The entry's plaintext, or why gpg could not give it (gpg's own last line, which holds no secret).
    private static func decrypt(_ path: String, gpg: String) -> Result<Data, DecryptionFailure> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gpg)
        process.arguments = ["--quiet", "--batch", "--yes", "--decrypt", path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failure(DecryptionFailure(reason: "gpg did not start (\(error.localizedDescription))"))
        }
        let errorReader = PipeDrain(errors.fileHandleForReading)
        let plaintext = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message =
                String(decoding: errorReader.wait(), as: UTF8.self)
                .split(separator: "\n").last.map { String($0) } ?? "exit status \(process.terminationStatus)"
            return .failure(DecryptionFailure(reason: "gpg could not decrypt it: \(message)"))
        }
        _ = errorReader.wait()
        return .success(plaintext)
    }
}

/// Why gpg gave no plaintext.
struct DecryptionFailure: Error {
    let reason: String
}

/// Reads a pipe to its end on a thread of its own, so that a child writing to two pipes never blocks on the one
/// not being read.
final class PipeDrain: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything the pipe carried, once its writer closed it.
    func wait() -> Data {
        done.wait()
        return data
    }
}
