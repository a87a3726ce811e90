import Crypto
import Foundation
import KeychainModel
import ProtectedFileFormat
import Testing

/// The format alone: the header's fields and authentication, the chunk layout, sealing bound to index and end.
@Suite("Protected file format", .timeLimit(.minutes(10)))
struct FormatTests {
    static let key = SymmetricKey(size: .bits256)

    @Test func headerRoundTripsAndEveryByteIsAuthenticated() throws {
        let wrapped = WrappedFileKey(
            protection: .completeUnlessOpen, wrappedKey: Data(repeating: 7, count: 40), ephemeralPublicKey: Data(repeating: 9, count: 32))
        let header = ProtectedFileHeader(wrappedKey: wrapped)
        let bytes = header.encoded(headerKey: Self.key, boundTo: "/home/ada/config")
        #expect(bytes.count == header.encodedLength)
        #expect(bytes.count == 8 + 16 + 2 + 40 + 32 + 32)
        #expect(Array(bytes.prefix(6)) == Array("CFPF".utf8) + [2, 2])
        let parsed = try ProtectedFileHeader.parse(bytes)
        #expect(parsed == header)
        try parsed.authenticate(bytes, with: Self.key, boundTo: "/home/ada/config")
        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 0x01
            let outcome = Result { () throws(FormatFailure) in
                try ProtectedFileHeader.parse(changed).authenticate(changed, with: Self.key, boundTo: "/home/ada/config")
            }
            guard case .failure = outcome else {
                Issue.record("header byte \(index) changed unnoticed")
                continue
            }
        }
    }

    @Test func headerOfAnotherFormatIsRefused() {
        #expect(throws: FormatFailure.notProtected) { try ProtectedFileHeader.parse(Data("plain text".utf8)) }
        var bytes = ProtectedFileHeader(wrappedKey: WrappedFileKey(protection: .none, wrappedKey: Data(count: 40)))
            .encoded(headerKey: Self.key, boundTo: "/x")
        bytes[4] = 3
        #expect(throws: FormatFailure.unsupportedVersion(3)) { try ProtectedFileHeader.parse(bytes) }
    }

    /// A header opens only for the path it was written for: the same bytes at another path, a path one byte longer,
    /// or a prefix of it, fail their authentication.
    @Test func aHeaderIsBoundToItsPath() throws {
        let header = ProtectedFileHeader(wrappedKey: WrappedFileKey(protection: .complete, wrappedKey: Data(repeating: 3, count: 40)))
        let bytes = header.encoded(headerKey: Self.key, boundTo: "/home/ada/config")
        let parsed = try ProtectedFileHeader.parse(bytes)
        #expect(parsed.isBoundToPath)
        try parsed.authenticate(bytes, with: Self.key, boundTo: "/home/ada/config")
        for other in ["/home/ada/other", "/home/ada/config2", "/home/ada/confi", "/home/bob/config", ""] {
            #expect(throws: FormatFailure.self, "\(other)") { try parsed.authenticate(bytes, with: Self.key, boundTo: other) }
        }
        // Written again for another path (a move): the same key and identifier, bound there.
        let moved = parsed.current.encoded(headerKey: Self.key, boundTo: "/srv/config")
        try ProtectedFileHeader.parse(moved).authenticate(moved, with: Self.key, boundTo: "/srv/config")
        #expect(try ProtectedFileHeader.parse(moved).fileID == header.fileID)
    }

    /// A file of the first format (version 1, before headers were bound to a path) is still read, at any path.
    @Test func aFirstFormatHeaderIsBoundToNoPath() throws {
        let header = ProtectedFileHeader(wrappedKey: WrappedFileKey(protection: .none, wrappedKey: Data(repeating: 5, count: 40)))
        var bytes = header.encoded(headerKey: Self.key, boundTo: "/ignored")
        bytes[4] = 1
        let signed = bytes.prefix(bytes.count - 32)
        bytes.replaceSubrange((bytes.count - 32)..., with: Data(HMAC<SHA256>.authenticationCode(for: signed, using: Self.key)))
        let parsed = try ProtectedFileHeader.parse(bytes)
        #expect(!parsed.isBoundToPath)
        try parsed.authenticate(bytes, with: Self.key, boundTo: "/anywhere")
        try parsed.authenticate(bytes, with: Self.key, boundTo: "/else")
        #expect(parsed.current.isBoundToPath)
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
