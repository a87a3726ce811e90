import Crypto
import Foundation

/// Seals and opens one chunk with AES-256-GCM: a random 96-bit nonce per sealing (a chunk rewritten in place
/// never reuses one), and associated data that binds the chunk's index and whether it is the last, so a chunk
/// moved, dropped, duplicated or followed by another fails to open.
public enum ChunkCipher {
    /// Bytes of the nonce that starts each stored chunk.
    public static let nonceSize = 12
    /// Bytes of the tag that ends each stored chunk.
    public static let tagSize = 16

    /// Appends chunk `index` of `content` to `output`: nonce ‖ ciphertext ‖ tag.
    public static func seal(
        _ content: UnsafeRawBufferPointer, index: Int, isFinal: Bool, key: SymmetricKey, into output: inout Data
    ) {
        let box: AES.GCM.SealedBox
        do {
            box = try AES.GCM.seal(content, using: key, nonce: AES.GCM.Nonce(), authenticating: associatedData(index, isFinal))
        } catch {
            // AES-GCM with a 256-bit key and a 96-bit nonce cannot fail on a chunk-sized input.
            preconditionFailure("AES-GCM sealing failed: \(error)")
        }
        output.append(contentsOf: box.nonce)
        output.append(box.ciphertext)
        output.append(box.tag)
    }

    /// The content of stored chunk `index` (nonce ‖ ciphertext ‖ tag); any change, or an index or final flag
    /// other than the one it was sealed with, is ``FormatFailure/damaged(reason:)``.
    public static func open(_ stored: UnsafeRawBufferPointer, index: Int, isFinal: Bool, key: SymmetricKey) throws(FormatFailure) -> Data {
        guard stored.count >= nonceSize + tagSize else { throw .damaged(reason: "chunk \(index) is cut short") }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: UnsafeRawBufferPointer(rebasing: stored[0..<nonceSize])),
                ciphertext: UnsafeRawBufferPointer(rebasing: stored[nonceSize..<(stored.count - tagSize)]),
                tag: UnsafeRawBufferPointer(rebasing: stored[(stored.count - tagSize)...]))
            return try AES.GCM.open(box, using: key, authenticating: associatedData(index, isFinal))
        } catch {
            throw .damaged(
                reason: isFinal
                    ? "chunk \(index), the last, fails its authentication (changed, moved, or the file was cut or extended)"
                    : "chunk \(index) fails its authentication (changed or moved)")
        }
    }

    /// The chunk's index (8 bytes, big-endian) and its final flag (one byte).
    private static func associatedData(_ index: Int, _ isFinal: Bool) -> Data {
        var data = Data(count: 9)
        var value = UInt64(index).bigEndian
        withUnsafeBytes(of: &value) { data.replaceSubrange(0..<8, with: $0) }
        data[8] = isFinal ? 1 : 0
        return data
    }
}
