import Crypto
import Foundation
import KeychainModel
import ProtectedFileFormat
import Testing

/// The format alone: the header's fields and authentication, the chunk layout, sealing bound to index and end.
@Suite("Protected file format")
struct FormatTests {
    static let key = SymmetricKey(size: .bits256)

    @Test func headerRoundTripsAndEveryByteIsAuthenticated() throws {
        let wrapped = WrappedFileKey(protection: .completeUnlessOpen, wrappedKey: Data(repeating: 7, count: 40), ephemeralPublicKey: Data(repeating: 9, count: 32))
        let header = ProtectedFileHeader(wrappedKey: wrapped)
        let bytes = header.encoded(headerKey: Self.key)
        #expect(bytes.count == header.encodedLength)
        #expect(bytes.count == 8 + 16 + 2 + 40 + 32 + 32)
        #expect(Array(bytes.prefix(6)) == Array("CFPF".utf8) + [1, 2])
        let parsed = try ProtectedFileHeader.parse(bytes)
        #expect(parsed == header)
        try parsed.authenticate(bytes, with: Self.key)
        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 0x01
            let outcome = Result { () throws(FormatFailure) in
                try ProtectedFileHeader.parse(changed).authenticate(changed, with: Self.key)
            }
            guard case .failure = outcome else {
                Issue.record("header byte \(index) changed unnoticed")
                continue
            }
        }
    }

    @Test func headerOfAnotherFormatIsRefused() {
        #expect(throws: FormatFailure.notProtected) { try ProtectedFileHeader.parse(Data("plain text".utf8)) }
        var bytes = ProtectedFileHeader(wrappedKey: WrappedFileKey(protection: .none, wrappedKey: Data(count: 40))).encoded(headerKey: Self.key)
        bytes[4] = 2
        #expect(throws: FormatFailure.unsupportedVersion(2)) { try ProtectedFileHeader.parse(bytes) }
    }

    @Test func layoutFollowsTheFileSize() throws {
        let start = 98
        #expect(try ChunkLayout(contentStart: start, fileSize: start + 28).contentLength == 0)
        #expect(try ChunkLayout(contentStart: start, fileSize: start + 28 + 5).contentLength == 5)
        #expect(try ChunkLayout(contentStart: start, fileSize: start + ChunkLayout.storedChunkSize).contentLength == 65_536)
        #expect(try ChunkLayout(contentStart: start, fileSize: start + ChunkLayout.storedChunkSize + 29).contentLength == 65_537)
        // No chunk sequence ends with 1…28 stored bytes after a full chunk.
        #expect(throws: FormatFailure.self) { try ChunkLayout(contentStart: start, fileSize: start + ChunkLayout.storedChunkSize + 28) }
        #expect(throws: FormatFailure.self) { try ChunkLayout(contentStart: start, fileSize: start + 27) }
        let layout = ChunkLayout(contentStart: start, contentLength: 200_000)
        #expect(layout.chunkCount == 4)
        #expect(layout.contentLength(ofChunk: 3) == 200_000 - 3 * 65_536)
        #expect(layout.fileSize == start + 3 * ChunkLayout.storedChunkSize + 200_000 - 3 * 65_536 + 28)
    }

    @Test func aChunkOpensOnlyAtItsIndexAndWithItsFinalFlag() throws {
        var stored = Data()
        Data("content".utf8).withUnsafeBytes { ChunkCipher.seal($0, index: 3, isFinal: false, key: Self.key, into: &stored) }
        #expect(stored.count == 7 + 28)
        let opened = try stored.withUnsafeBytes { try ChunkCipher.open($0, index: 3, isFinal: false, key: Self.key) }
        #expect(opened == Data("content".utf8))
        #expect(throws: FormatFailure.self) { try stored.withUnsafeBytes { try ChunkCipher.open($0, index: 4, isFinal: false, key: Self.key) } }
        #expect(throws: FormatFailure.self) { try stored.withUnsafeBytes { try ChunkCipher.open($0, index: 3, isFinal: true, key: Self.key) } }
    }
}
