import Foundation
import KeychainModel

extension BackupFile {
    /// Checks and decrypts all of `file` as ``open(_:with:progress:)`` does, then reads its plaintext as its
    /// header's version says: items alone (version 1) or items and protected files (version 2, ``BackupPayload``).
    public static func openPayload(
        _ file: Data, with secret: BackupSecret, progress: (Int, Int) -> Void = { _, _ in }
    ) throws(BackupFormatError) -> OpenedBackup {
        let version = try header(of: file).version
        return try BackupPayload.decode(try open(file, with: secret, progress: progress), version: version)
    }
}
