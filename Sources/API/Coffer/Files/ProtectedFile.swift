import CofferRuntime
import Foundation
import KeychainSelection
import KeychainModel
import ProtectedFileFormat

#if canImport(Glibc)
import Glibc
#endif

/// Files protected like Apple's Data Protection: each file has its own key, wrapped under the class key of its
/// protection, and its content is encrypted and authenticated in 64 KiB chunks.
///
/// On Linux, Foundation's `Data.write(to:options: .completeFileProtection)` compiles and does nothing: the
/// file is plaintext. This is the one-line change:
///
/// ```swift
/// // try data.write(to: url, options: .completeFileProtection)
/// try ProtectedFile.write(data, to: url, options: .completeFileProtection)
/// let back = try ProtectedFile.read(contentsOf: url)
/// ```
///
/// The classes keep Apple's meaning (``FileProtectionType``): `.complete` files can be read and written only
/// while the keychain is unlocked; `.completeUnlessOpen` files can be created while it is locked and read only
/// after it is unlocked, and a handle opened before the lock keeps working (``ProtectedFileHandle``);
/// `.completeUntilFirstUserAuthentication` files from the first unlock on; `.none` files always. A file that
/// was changed, cut short, extended or had its chunks reordered is never read: it fails with
/// `.fileReadCorruptFile`. The synchronous calls block their thread on file I/O and on the keychain, as
/// Foundation's do; the `async` ones run on a thread of their own.
public enum ProtectedFile {
    /// Writes `data` to a new protected file at `url` with `protection`, replacing any file there. With
    /// `atomically` (the default) the content is written beside it and renamed over it once durable.
    public static func write(
        _ data: Data, to url: URL, protection: FileProtectionType, atomically: Bool = true, keychain: Keychain = .shared
    ) throws(ProtectedFileError) {
        let protectionClass = try protection.requiredClass(path: url.path)
        let fileKey = try FileKeyService(client: keychain.client).makeKey(protectionClass, path: url.path)
        try write(data, fileKey: fileKey, to: url.path, atomically: atomically, progress: nil)
    }

    /// Writes `data` as `Data.write(to:options:)` would, with the protection the options name
    /// (`.completeFileProtection` and the others; none named gives Apple's default,
    /// `.completeUntilFirstUserAuthentication`). `.atomic` is honoured.
    public static func write(
        _ data: Data, to url: URL, options: Data.WritingOptions, keychain: Keychain = .shared
    ) throws(ProtectedFileError) {
        try write(
            data, to: url, protection: options.requestedProtection ?? .completeUntilFirstUserAuthentication,
            atomically: options.contains(.atomic), keychain: keychain)
    }

    /// The content of the protected file at `url`. Its class key must be available now.
    public static func read(contentsOf url: URL, keychain: Keychain = .shared) throws(ProtectedFileError) -> Data {
        let handle = try ProtectedFileHandle(forReadingFrom: url, keychain: keychain)
        defer { try? handle.close() }
        return try handle.readToEnd() ?? Data()
    }

    /// The protection of the file at `url`, read from its header without the keychain (as Foundation's
    /// `FileAttributeKey.protectionKey` would answer). A file that is not protected is `.fileReadCorruptFile`.
    public static func protection(of url: URL) throws(ProtectedFileError) -> FileProtectionType {
        let descriptor = try FileDescriptor.open(url.path, flags: O_RDONLY, writing: false)
        defer { descriptor.close() }
        return FileProtectionType(try ChunkedFile.readHeader(descriptor).0.protection)
    }

    /// Gives the file at `url` another protection: its content is written again under a new key of the new
    /// class, beside it, and renamed over it. Both class keys must be available (the old one to read).
    public static func setProtection(
        _ protection: FileProtectionType, of url: URL, keychain: Keychain = .shared
    ) throws(ProtectedFileError) {
        let protectionClass = try protection.requiredClass(path: url.path)
        let source = try ProtectedFileHandle(forReadingFrom: url, keychain: keychain)
        defer { try? source.close() }
        let fileKey = try FileKeyService(client: keychain.client).makeKey(protectionClass, path: url.path)
        let replacement = AtomicReplacement(destination: url.path)
        let descriptor = try replacement.create()
        do throws(ProtectedFileError) {
            let target = try ChunkedFile.create(on: descriptor, fileKey: fileKey, boundTo: BoundPath.of(url.path))
            var offset = 0
            while let piece = try source.read(upToCount: BulkChunks.batch * ChunkLayout.chunkSize), !piece.isEmpty {
                try withBytes(of: piece) { (bytes) throws(ProtectedFileError) in try target.write(bytes, at: offset) }
                offset += piece.count
            }
            try target.flush()
            try replacement.commit(descriptor)
        } catch {
            replacement.abandon(descriptor)
            throw error
        }
    }

    // MARK: Async

    /// ``write(_:to:protection:atomically:keychain:)`` on a thread of its own, the calling task suspended.
    public static func write(
        _ data: Data, to url: URL, protection: FileProtectionType, atomically: Bool = true, keychain: Keychain = .shared
    ) async throws(ProtectedFileError) {
        try await OwnThread.run(named: "coffer-files") { () throws(ProtectedFileError) in
            try write(data, to: url, protection: protection, atomically: atomically, keychain: keychain)
        }
    }

    /// ``read(contentsOf:keychain:)`` on a thread of its own, the calling task suspended.
    public static func read(contentsOf url: URL, keychain: Keychain = .shared) async throws(ProtectedFileError) -> Data {
        try await OwnThread.run(named: "coffer-files") { () throws(ProtectedFileError) in try read(contentsOf: url, keychain: keychain) }
    }

    /// ``setProtection(_:of:keychain:)`` on a thread of its own, the calling task suspended.
    public static func setProtection(
        _ protection: FileProtectionType, of url: URL, keychain: Keychain = .shared
    ) async throws(ProtectedFileError) {
        try await OwnThread.run(named: "coffer-files") { () throws(ProtectedFileError) in try setProtection(protection, of: url, keychain: keychain) }
    }

    // MARK: Writing

    /// Writes a whole file with `fileKey`, reporting the content bytes written so far to `progress`.
    static func write(
        _ data: Data, fileKey: FileKey, to path: String, atomically: Bool, progress: ((Int) -> Void)?
    ) throws(ProtectedFileError) {
        var failure: ProtectedFileError?
        let replacement = AtomicReplacement(destination: path)
        let descriptor =
            atomically
            ? try replacement.create() : try FileDescriptor.open(path, flags: O_RDWR | O_CREAT | O_TRUNC, writing: true)
        data.withUnsafeBytes { bytes in
            do throws(ProtectedFileError) {
                try BulkChunks.write(bytes, fileKey: fileKey, to: descriptor, boundTo: BoundPath.of(path), progress: progress)
            } catch {
                failure = error
            }
        }
        if let failure {
            if atomically { replacement.abandon(descriptor) } else { descriptor.close() }
            throw failure
        }
        if atomically {
            try replacement.commit(descriptor)
        } else {
            defer { descriptor.close() }
            try descriptor.synchronize()
        }
    }
}

extension Keychain {
    /// The process's shared keychain: the one the environment selects, shared with Apple's modules
    /// (`Security`), made on first use. Protected files use it unless given another.
    public static var shared: Keychain { Keychain(client: SharedKeychainClient.current) }
}
