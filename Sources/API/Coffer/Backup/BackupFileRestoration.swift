import BackupFormat
import Foundation
import KeychainModel
import KeychainOperations

#if canImport(Glibc)
import Glibc
#endif

/// The protected files of an opened backup, written back as protected files of this keychain.
///
/// Everything that can be checked without writing is checked when it is made, before the items are restored:
/// the destinations, and a fresh file key of each file's class from this keychain (so a locked keychain
/// refuses a `complete` file before anything is written). ``restore(policy:progress:)`` then writes each file
/// atomically (a temporary file beside it, mode 0600, synced, renamed over the destination, the folder
/// synced), under its new key and with its original class.
struct BackupFileRestoration {
    private let opened: OpenedBackup
    private let destinations: [String]
    private let keys: [FileKey]

    /// Plans the restore of `opened`'s files: at their original paths, or with `filesTo`, at each original
    /// path under that folder (`/home/a/notes` restores to `<filesTo>/home/a/notes`).
    init(_ opened: OpenedBackup, filesTo: URL?, keychain: Keychain) throws(BackupError) {
        self.opened = opened
        let root = filesTo.map { $0.standardizedFileURL.path }
        destinations = opened.files.map { file in
            guard let root else { return file.path }
            return root == "/" ? file.path : root + file.path
        }
        let service = FileKeyService(client: keychain.client)
        var keys: [FileKey] = []
        for (file, destination) in zip(opened.files, destinations) {
            do throws(ProtectedFileError) {
                keys.append(try service.makeKey(file.protection, path: destination))
            } catch {
                throw BackupError(.keychain, "\(destination): cannot restore the file: \(error.reason); nothing was restored", status: error.keychainStatus)
            }
        }
        self.keys = keys
    }

    /// Writes every file, applying `policy` where a file exists at its destination: `keep` leaves it,
    /// `replace` replaces it, `both` writes the backup's file beside it with ` (restored)` (then ` (restored 2)`
    /// and so on) before its extension. Stops at the first file that cannot be written.
    func restore(policy: RestorePolicy, progress: @escaping (BackupStage) -> Void) throws(BackupError) -> [RestoredFile] {
        var restored: [RestoredFile] = []
        for (index, file) in opened.files.enumerated() {
            var destination = destinations[index]
            let outcome: RestoredFile.Outcome
            if !Self.exists(destination) {
                outcome = .restored
            } else {
                switch policy {
                case .keep: outcome = .keptExisting
                case .replace: outcome = .replaced
                case .both:
                    outcome = .keptBoth
                    destination = Self.freeName(beside: destination)
                }
            }
            if outcome != .keptExisting {
                do throws(ProtectedFileError) {
                    try write(index, to: destination, progress: progress)
                } catch {
                    throw BackupError(
                        .file,
                        "\(destination): cannot restore the file: \(error.reason); the items and \(restored.count) of "
                            + "\(opened.files.count) files were restored", status: error.keychainStatus)
                }
            }
            restored.append(
                RestoredFile(
                    path: file.path, destination: destination, protection: FileProtectionType(file.protection), length: file.length,
                    outcome: outcome))
        }
        return restored
    }

    /// Writes file `index` at `path`, creating its missing folders (mode 0700).
    private func write(_ index: Int, to path: String, progress: @escaping (BackupStage) -> Void) throws(ProtectedFileError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ProtectedFileError(.fileWriteUnknown, path: path, reason: "cannot create its folder \(folder)")
        }
        let file = opened.files[index]
        let replacement = AtomicReplacement(destination: path)
        let descriptor = try replacement.create()
        progress(.protectedFile(path: path, done: 0, total: file.length))
        do throws(ProtectedFileError) {
            try opened.withContent(ofFile: index) { (bytes) throws(ProtectedFileError) in
                try BulkChunks.write(bytes, fileKey: keys[index], to: descriptor, boundTo: BoundPath.of(path)) { done in
                    progress(.protectedFile(path: path, done: done, total: file.length))
                }
            }
        } catch {
            replacement.abandon(descriptor)
            throw error
        }
        try replacement.commit(descriptor)
    }

    /// Whether anything (a file, a folder, a link) is at `path`.
    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// `name (restored).ext` beside `path`, or `name (restored 2).ext` and so on, the first that is free.
    static func freeName(beside path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        let name = url.lastPathComponent
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let suffix = dot.map { String(name[$0...]) } ?? ""
        var number = 1
        while true {
            let candidate = folder.appendingPathComponent("\(stem) (restored\(number == 1 ? "" : " \(number)"))\(suffix)").path
            if !exists(candidate) { return candidate }
            number += 1
        }
    }
}
