import Coffer
import CofferTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A protected file opens only at the path it was written for: another protected file of the same keychain copied
/// over it (`cp other config`) is refused, not read as its content; `ProtectedFile.move` takes a file elsewhere.
@Suite("Protected files are bound to their path", .timeLimit(.minutes(10)))
struct PathBindingTests {
    @Test(arguments: Transport.allCases)
    func aProtectedFileCopiedOverAnotherIsRefused(transport: Transport) throws {
        let fixture = try FileKeychain(transport, passcode: false)
        let config = fixture.file("config")
        let other = fixture.file("other")
        try ProtectedFile.write(Data("config content".utf8), to: config, protection: .completeUntilFirstUserAuthentication, keychain: fixture.keychain)
        try ProtectedFile.write(Data("other content".utf8), to: other, protection: .completeUntilFirstUserAuthentication, keychain: fixture.keychain)
        let original = try Data(contentsOf: config)
        try Data(contentsOf: other).write(to: config)
        do throws(ProtectedFileError) {
            let read = try ProtectedFile.read(contentsOf: config, keychain: fixture.keychain)
            Issue.record("a swapped file was read: \(read.count) bytes")
        } catch {
            #expect(error.code == .fileReadCorruptFile)
            #expect(error.description.contains("belongs at another path"))
        }
        #expect(throws: ProtectedFileError.self) { try ProtectedFileHandle(forUpdating: config, keychain: fixture.keychain) }
        // Renamed by hand, a file does not open at its new name either; put back, it does.
        try original.write(to: config)
        #expect(rename(other.path, fixture.file("renamed").path) == 0)
        #expect(throws: ProtectedFileError.self) { try ProtectedFile.read(contentsOf: fixture.file("renamed"), keychain: fixture.keychain) }
        #expect(try ProtectedFile.read(contentsOf: config, keychain: fixture.keychain) == Data("config content".utf8))
    }

    @Test(arguments: Transport.allCases)
    func aMovedFileOpensAtItsNewPathOnly(transport: Transport) throws {
        let fixture = try FileKeychain(transport, passcode: false)
        let source = fixture.file("notes")
        let content = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try ProtectedFile.write(content, to: source, protection: .completeUnlessOpen, keychain: fixture.keychain)
        let folder = fixture.file("archive")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let destination = folder.appendingPathComponent("notes-2026")
        try ProtectedFile.move(from: source, to: destination, keychain: fixture.keychain)
        #expect(!FileManager.default.fileExists(atPath: source.path))
        #expect(try ProtectedFile.read(contentsOf: destination, keychain: fixture.keychain) == content)
        #expect(try ProtectedFile.protection(of: destination) == .completeUnlessOpen)
        // Through a symbolic link to its folder, or a relative path, it is the same path.
        let link = fixture.file("archive-link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder)
        #expect(try ProtectedFile.read(contentsOf: link.appendingPathComponent("notes-2026"), keychain: fixture.keychain) == content)
        // Copied back to its old path by hand, the moved file is refused there.
        try Data(contentsOf: destination).write(to: source)
        #expect(throws: ProtectedFileError.self) { try ProtectedFile.read(contentsOf: source, keychain: fixture.keychain) }
        // Moving onto itself changes nothing.
        try ProtectedFile.move(from: destination, to: link.appendingPathComponent("notes-2026"), keychain: fixture.keychain)
        #expect(try ProtectedFile.read(contentsOf: destination, keychain: fixture.keychain) == content)
    }
}
