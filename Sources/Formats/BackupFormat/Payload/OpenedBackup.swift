import KeychainModel

/// A backup's plaintext, checked and split: the items for the keychain and the protected files' entries, whose
/// content is read in place from the zeroizing plaintext (never copied out of it).
public struct OpenedBackup: Sendable {
    /// The items, an encoded ``BackupRecordStream`` whose structure was checked.
    public let items: SecretBytes
    /// The protected files, in the order they were backed up (none in a backup of format version 1).
    public let files: [BackupFileEntry]
    private let plaintext: SecretBytes
    private let offsets: [Int]

    init(items: SecretBytes, files: [BackupFileEntry], plaintext: SecretBytes, offsets: [Int]) {
        self.items = items
        self.files = files
        self.plaintext = plaintext
        self.offsets = offsets
    }

    /// Calls `body` with the content of file `index`. Do not let the pointer escape.
    public func withContent<Result, Failure: Error>(
        ofFile index: Int, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let range = offsets[index]..<offsets[index] + files[index].length
        return try plaintext.withUnsafeBytes { (bytes) throws(Failure) -> Result in
            try body(UnsafeRawBufferPointer(rebasing: bytes[range]))
        }
    }
}
