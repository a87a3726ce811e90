import BackupFormat
import CofferRuntime
import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations

/// Backups: one file holding every item that may leave the device, encrypted under a backup password or a
/// recovery key, and restoring it onto this keychain or another one.
extension Keychain {
    /// Writes a backup of every item of this caller's access groups that may leave the device: generic and
    /// internet passwords, certificates, and keys whose key is extractable, with all their attributes.
    /// `…ThisDeviceOnly` and `WhenPasscodeSetThisDeviceOnly` items, token and non-extractable keys and items
    /// bound to this device's fingerprints stay behind, as Apple's backups leave them (the summary counts them).
    ///
    /// The file is encrypted with a key derived from `protection` (a password through scrypt with `kdf`, or a
    /// recovery key) and authenticated as a whole; it is written durably (mode 0600) and replaces `url`
    /// atomically. The keychain must be unlocked; with a passcode, `keychainPasscode` is needed (a wrong one
    /// counts as a failed unlock).
    ///
    /// - Parameters:
    ///   - files: protected files to include, by path: each is opened through this keychain (it must be readable
    ///     now) and its content, protection class and absolute path go into the backup; a folder includes every
    ///     protected file under it. A path that is missing or not a protected file fails before anything is
    ///     written. Files make a backup of format version 2, which older builds refuse.
    ///   - progress: called on the work thread with each stage.
    public func backup(
        to url: URL, protection: BackupSecret, keychainPasscode: SecretBytes? = nil, kdf: BackupKDF = .standard,
        files: [URL] = [], progress: @escaping @Sendable (BackupStage) -> Void = { _ in }
    ) async throws(BackupError) -> BackupSummary {
        let client = self.client
        let keychain = self
        return try await OwnThread.run(named: "coffer-backup") { () throws(BackupError) in
            let collection = try BackupFileCollection(files, keychain: keychain)
            let export = { () throws(BackupError) -> BackupContents in
                progress(.keychain)
                do throws(KeychainFailure) {
                    return try client.sendBlocking(.exportBackup(BackupExport(passcode: keychainPasscode))).backupResult()
                } catch {
                    throw BackupError(error, doing: "reading the keychain's items")
                }
            }
            guard !collection.entries.isEmpty else {
                // Items alone: sealed as they come from the keychain, straight into the file.
                return try Self.sealStreaming(to: url, protection: protection, kdf: kdf, progress: progress, contents: export)
            }
            let contents = try export()
            let items: SecretBytes
            do throws(BackupFormatError) { items = try BackupRecordStream.joined(contents.parts) } catch { throw BackupError(error) }
            let payload = try collection.payload(items: items, progress: progress)
            if case .password = protection { progress(.derivingKey) }
            let file: Data
            do throws(BackupFormatError) {
                file = try BackupFile.seal(payload.plaintext, with: protection, kdf: kdf, version: payload.version) { done, total in
                    progress(.cipher(done: done, total: total))
                }
            } catch {
                throw BackupError(error)
            }
            progress(.file)
            try BackupFileIO.write(file, to: url.path)
            return BackupSummary(
                itemCount: contents.itemCount, leftBehind: contents.leftBehind, fileSize: file.count, files: collection.entries.map(\.path),
                fileContentSize: collection.entries.reduce(0) { $0 + $1.length })
        }
    }

    /// Seals the record stream of the items `contents` reads into the file at `url` as it goes (format version 1):
    /// the memory of one chunk beside the items. The key is derived first, so that the password's scrypt work
    /// area is freed before the items are read.
    private static func sealStreaming(
        to url: URL, protection: BackupSecret, kdf: BackupKDF, progress: @escaping @Sendable (BackupStage) -> Void,
        contents readContents: () throws(BackupError) -> BackupContents
    ) throws(BackupError) -> BackupSummary {
        if case .password = protection { progress(.derivingKey) }
        return try BackupFileIO.writeAtomically(to: url.path) { write in
            let sealer = try BackupFileSealer(secret: protection, kdf: kdf, write: write)
            let contents = try readContents()
            let total = BackupRecordStream.joinedLength(of: contents.parts)
            try BackupRecordStream.forEachPiece(joining: contents.parts) { piece in
                try sealer.append(piece)
                progress(.cipher(done: sealer.plaintextCount, total: total))
            }
            try sealer.finish()
            progress(.file)
            return BackupSummary(
                itemCount: contents.itemCount, leftBehind: contents.leftBehind, fileSize: sealer.fileCount, files: [], fileContentSize: 0)
        }
    }

    /// Writes a backup protected by a password (see ``backup(to:protection:keychainPasscode:kdf:files:progress:)``).
    public func backup(to url: URL, password: SecretBytes, keychainPasscode: SecretBytes? = nil) async throws(BackupError) -> BackupSummary {
        try await backup(to: url, protection: .password(password), keychainPasscode: keychainPasscode)
    }

    /// Restores the backup at `url` into this keychain.
    ///
    /// The whole file is checked first (its format, the password, every chunk's authentication, its length and
    /// every item), and nothing is written unless all of it holds: a wrong password is
    /// ``BackupError/Kind/wrongPassword``, a damaged or cut file ``BackupError/Kind/damaged``. Then every item is
    /// written in one transaction, encrypted under this keychain's own keys (a backup restores onto another
    /// machine), so an interrupted restore leaves the keychain as it was. An item whose primary key is taken by
    /// a different item is resolved by `policy`; the report lists each such conflict. The items go to the keychain
    /// in parts of a few MiB (``BackupStage/staging(sent:total:)``), so a restore of any size goes through cofferd.
    ///
    /// The backup's protected files are restored after the items' transaction commits, each as a protected file
    /// of this keychain (a new key under this keychain's class key) with its original protection class, at its
    /// original path or, with `filesTo`, at that path under `filesTo`; each is written atomically (mode 0600).
    /// A file already there follows `policy` too (keep it, replace it, or write the backup's beside it with
    /// ` (restored)` in its name). Before anything is written, the keychain makes each file's new key, so a
    /// locked keychain refuses a `complete` file first. A crash after the items committed leaves the items
    /// restored and the files written so far, each whole or absent: restoring again completes it.
    public func restore(
        from url: URL, protection: BackupSecret, policy: RestorePolicy = .keep, filesTo: URL? = nil,
        progress: @escaping @Sendable (BackupStage) -> Void = { _ in }
    ) async throws(BackupError) -> BackupRestoreReport {
        let client = self.client
        let keychain = self
        return try await OwnThread.run(named: "coffer-backup") { () throws(BackupError) in
            progress(.file)
            let reader = try BackupFileReader(url.path)
            let prefix = try reader.read(at: 0, count: min(reader.length, BackupHeader.maximumLength))
            let version: UInt8
            do throws(BackupFormatError) { version = try BackupFile.header(of: prefix).version } catch { throw BackupError(error) }
            guard version != BackupHeader.itemsOnlyVersion else {
                let items = try Self.restoreStreaming(reader, prefix: prefix, protection: protection, policy: policy, client: client, progress: progress)
                return BackupRestoreReport(items: items)
            }
            let file = try reader.read(at: 0, count: reader.length)
            let opened = try Self.open(file, protection: protection, progress: progress)
            let records = opened.items
            let files = try BackupFileRestoration(opened, filesTo: filesTo, keychain: keychain)
            let items = try StagedRestoreUpload.restore(records, policy: policy, client: client, progress: progress)
            return BackupRestoreReport(items: items, files: try files.restore(policy: policy, progress: progress))
        }
    }

    /// Restores a backup of items alone (format version 1) a chunk at a time: every chunk is authenticated
    /// first (nothing is sent unless the whole file holds), then decrypted again and cut into parts that are
    /// staged as they fill, so only the keychain's staging holds the items.
    private static func restoreStreaming(
        _ reader: BackupFileReader, prefix: Data, protection: BackupSecret, policy: RestorePolicy, client: any KeychainClient,
        progress: @escaping @Sendable (BackupStage) -> Void
    ) throws(BackupError) -> RestoreReport {
        let opener: BackupFileOpener
        do throws(BackupFormatError) {
            if case .password = protection { progress(.derivingKey) }
            opener = try BackupFileOpener(fileLength: reader.length, prefix: prefix, secret: protection)
        } catch {
            throw BackupError(error)
        }
        let total = opener.plaintextCount
        let read = { (offset: Int, count: Int) throws -> Data in try reader.read(at: offset, count: count) }
        return try Self.mappingErrors { () throws -> RestoreReport in
            var checked = 0
            try opener.forEachChunk(read: read) { plain in
                checked += plain.count
                progress(.cipher(done: checked, total: total))
            }
            var upload = StagedRestoreUpload(
                client: client, expectedParts: max(1, (total + StagedRestoreUpload.partBytes - 1) / StagedRestoreUpload.partBytes),
                progress: progress)
            let splitter = BackupRecordStream.Splitter(maximumBytes: StagedRestoreUpload.partBytes, largestPiece: opener.header.chunkSize)
            try opener.forEachChunk(read: read) { plain in
                for part in try splitter.append(plain) { try upload.stage(part) }
            }
            if let last = try splitter.finish() { try upload.stage(last) }
            return try upload.restore(policy: policy)
        }
    }

    /// Runs `body`, whose errors are a ``BackupError`` or a ``BackupFormatError``, as one ``BackupError``; any
    /// other error is a file error described by `otherwise` (by the error itself when nil).
    static func mappingErrors<Value>(otherwise: String? = nil, _ body: () throws -> Value) throws(BackupError) -> Value {
        do {
            return try body()
        } catch let error as BackupError {
            throw error
        } catch let error as BackupFormatError {
            throw BackupError(error)
        } catch {
            throw BackupError(.file, otherwise ?? "\(error)")
        }
    }

    /// Restores a backup protected by a password (see ``restore(from:protection:policy:filesTo:progress:)``).
    public func restore(from url: URL, password: SecretBytes, policy: RestorePolicy = .keep) async throws(BackupError) -> BackupRestoreReport {
        try await restore(from: url, protection: .password(password), policy: policy)
    }

    /// What protects the backup at `url` (a password, a recovery key or a recipient keychain's key), read from its
    /// header alone.
    public static func backupProtection(of url: URL) throws(BackupError) -> BackupSecretKind {
        try backupHeader(of: url).secretKind
    }

    /// Opens and checks the whole file, then checks the structure of every record and file entry.
    static func open(
        _ file: Data, protection: BackupSecret, progress: @escaping @Sendable (BackupStage) -> Void
    ) throws(BackupError) -> OpenedBackup {
        do throws(BackupFormatError) {
            if case .password = protection { progress(.derivingKey) }
            return try BackupFile.openPayload(file, with: protection) { done, total in progress(.cipher(done: done, total: total)) }
        } catch {
            throw BackupError(error)
        }
    }
}
