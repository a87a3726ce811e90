import KeychainModel
import CCofferSystem
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// File operations for key files: created 0600, replaced atomically and durably, read without growth copies.
public enum SecureFile {
    /// Replaces the file at `url` with `bytes`, so that a crash at any moment leaves either the old
    /// or the new content: write a temporary file in the same folder, fsync it, rename it over the
    /// target, then fsync the folder.
    ///
    /// A folder this process may not write (no write permission, a read-only file system) throws
    /// ``KeystoreError/readOnly(reason:)`` before anything is written.
    public static func writeAtomically(_ bytes: UnsafeRawBufferPointer, to url: URL) throws(KeystoreError) {
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: .min ... .max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if KeychainFolder.isReadOnlyError(errno) {
                throw .readOnly(reason: KeychainFolder(url: URL(fileURLWithPath: folder, isDirectory: true)).readOnlyReason)
            }
            throw .io(reason: "cannot create \(temporary): \(errnoText())")
        }
        var written = 0
        while written < bytes.count {
            let result = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                let reason = errnoText()
                close(descriptor)
                unlink(temporary)
                throw .io(reason: "cannot write \(temporary): \(reason)")
            }
            written += result
        }
        guard fsync(descriptor) == 0 else {
            let reason = errnoText()
            close(descriptor)
            unlink(temporary)
            throw .io(reason: "cannot sync \(temporary): \(reason)")
        }
        close(descriptor)
        guard rename(temporary, url.path) == 0 else {
            let reason = errnoText()
            unlink(temporary)
            throw .io(reason: "cannot replace \(url.path): \(reason)")
        }
        try syncFolder(folder)
    }

    /// Makes a rename or a new file in `folder` durable.
    static func syncFolder(_ folder: String) throws(KeystoreError) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(reason: "cannot open \(folder): \(errnoText())") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .io(reason: "cannot sync \(folder): \(errnoText())") }
    }

    /// Reads a whole file (at most `limit` bytes) into zeroizing storage; nil when it does not exist.
    public static func read(_ url: URL, limit: Int) throws(KeystoreError) -> SecretBytes? {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw .unavailable(reason: "\(url.path) is a symbolic link; keychain files are never followed through links") }
            throw .io(reason: "cannot open \(url.path): \(errnoText())")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .io(reason: "cannot stat \(url.path): \(errnoText())") }
        let size = Int(status.st_size)
        guard size <= limit else { throw .io(reason: "\(url.path) is larger than \(limit) bytes") }
        var failure: KeystoreError?
        let bytes = SecretBytes(capacity: size + 1) { buffer in
            var total = 0
            while total <= size {
                let result = Glibc.read(descriptor, buffer.baseAddress! + total, buffer.count - total)
                if result < 0 {
                    if errno == EINTR { continue }
                    failure = .io(reason: "cannot read \(url.path): \(errnoText())")
                    return 0
                }
                if result == 0 { break }
                total += result
            }
            return total
        }
        if let failure { throw failure }
        guard bytes.count <= size else { throw .io(reason: "\(url.path) changed while it was read") }
        return bytes
    }

    /// Runs `body` while holding an exclusive `flock` on `lockURL` (created 0600), so that keybag
    /// read-modify-write cycles of several processes do not lose each other's changes.
    ///
    /// A read-only keychain is read without creating anything: an existing lock file is locked through
    /// a read-only descriptor; when there is none and the folder cannot be written, `body` runs without
    /// the lock — it can then only read, since every keybag write in such a folder fails with
    /// ``KeystoreError/readOnly(reason:)``.
    static func withExclusiveLock<Result>(
        _ lockURL: URL, _ body: () throws(KeystoreError) -> Result
    ) throws(KeystoreError) -> Result {
        var descriptor = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if descriptor < 0, KeychainFolder.isReadOnlyError(errno) {
            // A read-only keychain: an existing lock file can still be locked through a read-only descriptor.
            descriptor = open(lockURL.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            if descriptor < 0, errno == ENOENT { return try body() }
        }
        guard descriptor >= 0 else {
            if errno == ELOOP { throw .unavailable(reason: "\(lockURL.path) is a symbolic link; keychain files are never followed through links") }
            throw .io(reason: "cannot open \(lockURL.path): \(errnoText())")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .io(reason: "cannot lock \(lockURL.path): \(errnoText())") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
