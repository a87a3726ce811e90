import Coffer
import CofferTestSupport
import Foundation
import Testing

/// Each class across lock, unlock and a restart of the keychain (a new process, or a new daemon), through both
/// transports, with Apple's errors.
@Suite("Protected files and the lock state", .timeLimit(.minutes(10)))
struct LockStateTests {
    static let classes: [FileProtectionType] = [.complete, .completeUnlessOpen, .completeUntilFirstUserAuthentication, .none]

    /// What reading each class gives: the content, or the code of the error.
    private static func readEach(_ fixture: FileKeychain) -> [String: CocoaError.Code?] {
        var outcomes: [String: CocoaError.Code?] = [:]
        for protection in classes {
            let url = fixture.file(protection.rawValue)
            do throws(ProtectedFileError) {
                let data = try ProtectedFile.read(contentsOf: url, keychain: fixture.keychain)
                outcomes[protection.rawValue] = data == pattern(100_000, seed: 3) ? .some(nil) : .some(.fileReadUnknown)
            } catch {
                #expect(error.path == url.path)
                if error.code == .fileReadNoPermission { #expect(error.keychainStatus == .interactionNotAllowed) }
                outcomes[protection.rawValue] = error.code
            }
        }
        return outcomes
    }

    private static func expected(a: CocoaError.Code?, b: CocoaError.Code?, c: CocoaError.Code?) -> [String: CocoaError.Code?] {
        [
            FileProtectionType.complete.rawValue: a, FileProtectionType.completeUnlessOpen.rawValue: b,
            FileProtectionType.completeUntilFirstUserAuthentication.rawValue: c, FileProtectionType.none.rawValue: nil,
        ]
    }

    @Test(arguments: Transport.allCases)
    func eachClassAcrossLockUnlockAndRestart(transport: Transport) throws {
        let fixture = try FileKeychain(transport)
        for protection in Self.classes {
            try ProtectedFile.write(pattern(100_000, seed: 3), to: fixture.file(protection.rawValue), protection: protection, keychain: fixture.keychain)
            #expect(try ProtectedFile.protection(of: fixture.file(protection.rawValue)).rawValue == protection.rawValue)
        }
        #expect(Self.readEach(fixture) == Self.expected(a: nil, b: nil, c: nil))
        try fixture.lock()
        #expect(Self.readEach(fixture) == Self.expected(a: .fileReadNoPermission, b: .fileReadNoPermission, c: nil))
        try fixture.unlock()
        #expect(Self.readEach(fixture) == Self.expected(a: nil, b: nil, c: nil))
        try fixture.restart()
        #expect(Self.readEach(fixture) == Self.expected(a: .fileReadNoPermission, b: .fileReadNoPermission, c: .fileReadNoPermission))
        try fixture.unlock()
        #expect(Self.readEach(fixture) == Self.expected(a: nil, b: nil, c: nil))
    }

    @Test(arguments: Transport.allCases)
    func completeCannotBeWrittenWhileLockedButCompleteUnlessOpenCan(transport: Transport) throws {
        let fixture = try FileKeychain(transport)
        try fixture.lock()
        let error = try #require(throws: ProtectedFileError.self) {
            try ProtectedFile.write(Data("a".utf8), to: fixture.file("a"), protection: .complete, keychain: fixture.keychain)
        }
        #expect(error.code == .fileWriteNoPermission)
        #expect(error.isLocked)
        #expect(error.reason == "the file is protected with NSFileProtectionComplete, whose class key is not available while the keychain is locked")
        #expect(error.cocoaError.code == .fileWriteNoPermission)
        #expect(!FileManager.default.fileExists(atPath: fixture.file("a").path))

        // Created while locked: written and read back through the handle that created it, unreadable once closed.
        let url = fixture.file("b")
        let handle = try ProtectedFileHandle(forWritingTo: url, protection: .completeUnlessOpen, keychain: fixture.keychain)
        try handle.write(contentsOf: pattern(150_000))
        try handle.write(contentsOf: Data("tail".utf8))
        #expect(try handle.read(fromOffset: 0, upToCount: 200_000) == pattern(150_000) + Data("tail".utf8))
        try handle.close()
        let locked = try #require(throws: ProtectedFileError.self) { try ProtectedFile.read(contentsOf: url, keychain: fixture.keychain) }
        #expect(locked.code == .fileReadNoPermission)
        try ProtectedFile.write(Data("whole".utf8), to: fixture.file("b2"), protection: .completeUnlessOpen, keychain: fixture.keychain)
        try fixture.unlock()
        #expect(try ProtectedFile.read(contentsOf: url, keychain: fixture.keychain) == pattern(150_000) + Data("tail".utf8))
        #expect(try ProtectedFile.read(contentsOf: fixture.file("b2"), keychain: fixture.keychain) == Data("whole".utf8))
    }

    @Test(arguments: Transport.allCases)
    func anOpenCompleteUnlessOpenHandleStaysWritableAfterLock(transport: Transport) throws {
        let fixture = try FileKeychain(transport)
        let url = fixture.file("open-b")
        try ProtectedFile.write(pattern(70_000), to: url, protection: .completeUnlessOpen, keychain: fixture.keychain)
        let handle = try ProtectedFileHandle(forUpdating: url, keychain: fixture.keychain)
        try fixture.lock()
        Thread.sleep(forTimeInterval: 0.15)
        try handle.seekToEnd()
        try handle.write(contentsOf: pattern(10_000, seed: 9))
        #expect(try handle.read(fromOffset: 0, upToCount: 100) == pattern(70_000).prefix(100))
        #expect(try handle.length == 80_000)
        try handle.close()
        #expect(throws: ProtectedFileError.self) { try ProtectedFileHandle(forReadingFrom: url, keychain: fixture.keychain) }
        try fixture.unlock()
        #expect(try ProtectedFile.read(contentsOf: url, keychain: fixture.keychain) == pattern(70_000) + pattern(10_000, seed: 9))
    }

    @Test(arguments: Transport.allCases)
    func anOpenCompleteHandleLosesItsKeyAtLock(transport: Transport) throws {
        let fixture = try FileKeychain(transport)
        let url = fixture.file("open-a")
        try ProtectedFile.write(pattern(70_000), to: url, protection: .complete, keychain: fixture.keychain)
        let handle = try ProtectedFileHandle(forUpdating: url, keychain: fixture.keychain)
        #expect(try handle.read(upToCount: 10) == pattern(70_000).prefix(10))
        try handle.write(contentsOf: Data("written before the lock".utf8))
        try fixture.lock()
        Thread.sleep(forTimeInterval: 0.15)
        let read = try #require(throws: ProtectedFileError.self) { try handle.read(fromOffset: 0, upToCount: 10) }
        #expect(read.code == .fileReadNoPermission)
        let write = try #require(throws: ProtectedFileError.self) { try handle.write(contentsOf: Data("x".utf8)) }
        #expect(write.code == .fileWriteNoPermission)
        try fixture.unlock()
        var expected = pattern(70_000)
        expected.replaceSubrange(10..<33, with: Data("written before the lock".utf8))
        #expect(try handle.read(fromOffset: 0, upToCount: 100_000) == expected)
        try handle.close()
        #expect(try ProtectedFile.read(contentsOf: url, keychain: fixture.keychain) == expected)
    }
}
