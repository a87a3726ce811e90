import ArgumentParser
import Coffer
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `coffer file protect PATH [--class CLASS] [-o OUTPUT]`.
struct FileProtectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "protect", abstract: "Encrypt a file with a file protection class (in place, or to --output).")

    @Argument(help: "The file to protect.")
    var path: String
    @Option(name: .customLong("class"), help: "The protection class: \(FileClassArgument.allValueStrings.joined(separator: ", ")).")
    var protection = FileClassArgument(.completeUntilFirstUserAuthentication)
    @Option(name: [.customShort("o"), .customLong("output")], help: "Write the protected file here instead of replacing PATH.")
    var output: String?

    func run() throws {
        try FileCalls.reporting {
            if (try? ProtectedFile.protection(of: URL(fileURLWithPath: path))) != nil {
                throw CLIFailure("file protect: \(path) is already protected; use 'coffer file class --set' to change its class")
            }
            let input = try FileCalls.openPlain(path)
            defer { try? input.close() }
            let total = Int((try? input.seekToEnd()) ?? 0)
            try input.seek(toOffset: 0)
            let destination = output ?? path
            let temporary = FileCalls.temporaryPath(beside: destination)
            let progress = FileProgress("protecting \(path)", total: total)
            do {
                let handle = try ProtectedFileHandle(
                    forWritingTo: URL(fileURLWithPath: temporary), renamedTo: URL(fileURLWithPath: destination),
                    protection: protection.protection, keychain: FileCalls.keychain)
                try FileCalls.copy(from: { try input.read(upToCount: FileCalls.pieceSize) }, to: handle.write(contentsOf:), progress: progress)
                try handle.synchronize()
                try handle.close()
                try FileCalls.replace(destination, with: temporary)
                progress.finish()
            } catch {
                unlink(temporary)
                throw error
            }
        }
    }
}

/// `coffer file unprotect PATH [-o OUTPUT]`.
struct FileUnprotectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unprotect", abstract: "Decrypt a protected file back to a plain file (in place, or to --output).")

    @Argument(help: "The protected file.")
    var path: String
    @Option(name: [.customShort("o"), .customLong("output")], help: "Write the plain file here instead of replacing PATH.")
    var output: String?

    func run() throws {
        try FileCalls.reporting {
            let handle = try ProtectedFileHandle(forReadingFrom: URL(fileURLWithPath: path), keychain: FileCalls.keychain)
            defer { try? handle.close() }
            let destination = output ?? path
            let temporary = FileCalls.temporaryPath(beside: destination)
            let progress = FileProgress("unprotecting \(path)", total: Int(try handle.length))
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else { throw CLIFailure("file unprotect: cannot create \(temporary): \(String(cString: strerror(errno)))") }
            let plain = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            var isOpen = true
            do {
                try FileCalls.copy(from: { try handle.read(upToCount: FileCalls.pieceSize) }, to: plain.write(contentsOf:), progress: progress)
                guard fsync(descriptor) == 0 else { throw CLIFailure("file unprotect: cannot write \(temporary)") }
                close(descriptor)
                isOpen = false
                try FileCalls.replace(destination, with: temporary)
                progress.finish()
            } catch {
                if isOpen { close(descriptor) }
                unlink(temporary)
                throw error
            }
        }
    }
}

/// `coffer file cat PATH`.
struct FileCatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cat", abstract: "Write a protected file's content to standard output.")

    @Argument(help: "The protected file.")
    var path: String

    func run() throws {
        try FileCalls.reporting {
            let handle = try ProtectedFileHandle(forReadingFrom: URL(fileURLWithPath: path), keychain: FileCalls.keychain)
            defer { try? handle.close() }
            let progress = FileProgress("reading \(path)", total: Int(try handle.length))
            try FileCalls.copy(from: { try handle.read(upToCount: FileCalls.pieceSize) }, to: { FileHandle.standardOutput.write($0) }, progress: progress)
            progress.finish()
        }
    }
}

/// `coffer file class PATH [--set CLASS]`.
struct FileClassCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "class", abstract: "Print a protected file's class, or change it with --set.")

    @Argument(help: "The protected file.")
    var path: String
    @Option(name: .customLong("set"), help: "The new class: \(FileClassArgument.allValueStrings.joined(separator: ", ")).")
    var newClass: FileClassArgument?

    func run() throws {
        try FileCalls.reporting {
            let url = URL(fileURLWithPath: path)
            if let newClass {
                try ProtectedFile.setProtection(newClass.protection, of: url, keychain: FileCalls.keychain)
            }
            print(FileClassArgument.describe(try ProtectedFile.protection(of: url)))
        }
    }
}

/// What the file commands share.
enum FileCalls {
    /// Bytes read or written at a time.
    static let pieceSize = 1 << 20

    /// The command's keychain.
    static var keychain: Keychain { Keychain(client: CLIKeychain.shared) }

    /// Runs `body`, turning protected-file errors into one line.
    static func reporting(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ProtectedFileError {
            throw CLIFailure("file: \(error)")
        }
    }

    /// Opens a plain file for reading.
    static func openPlain(_ path: String) throws -> FileHandle {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CLIFailure("file protect: cannot open \(path): \(String(cString: strerror(errno)))")
        }
        return handle
    }

    /// A new name in `destination`'s folder.
    static func temporaryPath(beside destination: String) -> String {
        let url = URL(fileURLWithPath: destination)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).coffer-\(UInt32.random(in: .min ... .max))").path
    }

    /// Writes every piece `read` gives (until nil or an empty piece) through `write`, counting them on `progress`.
    static func copy(from read: () throws -> Data?, to write: (Data) throws -> Void, progress: FileProgress) throws {
        var done = 0
        while let piece = try read(), !piece.isEmpty {
            try write(piece)
            done += piece.count
            progress.update(done)
        }
    }

    /// Renames `temporary` over `destination`.
    static func replace(_ destination: String, with temporary: String) throws {
        guard rename(temporary, destination) == 0 else {
            throw CLIFailure("file: cannot replace \(destination): \(String(cString: strerror(errno)))")
        }
    }
}
