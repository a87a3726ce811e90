import Foundation
import Testing
import TestProcesses

/// `coffer file protect | unprotect | cat | class | mv`, on the embedded keychain and through a per-user cofferd.
@Suite("coffer file", .timeLimit(.minutes(10)))
struct FileCommandTests {
    static let content = Data((0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ ($0 >> 9)) })

    @Test(arguments: CLITransport.allCases)
    func protectCatClassUnprotectRoundTrip(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        let cli = fixture.cli
        let plain = try fixture.file("notes.bin", Self.content)

        let protect = try cli.run(["file", "protect", plain.path])
        #expect(protect.status == 0, "\(protect.standardError)")
        #expect(protect.standardError == "")  // standard error is not a terminal: no progress
        let stored = try Data(contentsOf: plain)
        #expect(stored.prefix(4) == Data("CFPF".utf8))
        #expect(stored.count > Self.content.count)
        #expect(stored.range(of: Self.content.prefix(64)) == nil)
        #expect((try FileManager.default.attributesOfItem(atPath: plain.path)[.posixPermissions] as? Int) == 0o600)

        let classOf = try cli.run(["file", "class", plain.path])
        #expect(classOf.standardOutput == "complete-until-first-user-authentication (NSFileProtectionCompleteUntilFirstUserAuthentication, class C)\n")
        let cat = try cli.run(["file", "cat", plain.path])
        #expect(cat.status == 0)
        #expect(cat.standardOutputBytes == Self.content)

        let again = try cli.run(["file", "protect", plain.path])
        #expect(again.status == 1)
        #expect(again.standardError == "coffer: file protect: \(plain.path) is already protected; use 'coffer file class --set' to change its class\n")

        let moved = try cli.run(["file", "class", plain.path, "--set", "none"])
        #expect(moved.standardOutput == "none (NSFileProtectionNone, class D)\n")
        #expect(try cli.run(["file", "cat", plain.path]).standardOutputBytes == Self.content)

        let copy = fixture.scratch.appendingPathComponent("copy.bin")
        let out = try cli.run(["file", "unprotect", plain.path, "-o", copy.path])
        #expect(out.status == 0)
        #expect(try Data(contentsOf: copy) == Self.content)
        let inPlace = try cli.run(["file", "unprotect", plain.path])
        #expect(inPlace.status == 0)
        #expect(try Data(contentsOf: plain) == Self.content)

        let other = fixture.scratch.appendingPathComponent("other.bin")
        let toOutput = try cli.run(["file", "protect", plain.path, "--class", "B", "-o", other.path])
        #expect(toOutput.status == 0)
        #expect(try Data(contentsOf: plain) == Self.content)
        #expect(try cli.run(["file", "class", other.path]).standardOutput == "complete-unless-open (NSFileProtectionCompleteUnlessOpen, class B)\n")
    }

    @Test(arguments: CLITransport.allCases)
    func aLockedClassIsRefusedWithApplesMeaning(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        let cli = fixture.cli
        let a = try fixture.file("a.txt", Data("class A".utf8))
        let d = try fixture.file("d.txt", Data("class D".utf8))
        #expect(try cli.run(["file", "protect", a.path, "--class", "complete"]).status == 0)
        #expect(try cli.run(["file", "protect", d.path, "--class", "none"]).status == 0)
        #expect(try cli.run(["passcode", "set"], input: "file-code\n").status == 0)
        if transport == .daemon { #expect(try cli.run(["lock"]).status == 0) }
        // Embedded, each command is a new process: the keychain starts before its first unlock.
        let locked = try cli.run(["file", "cat", a.path])
        #expect(locked.status == 1)
        #expect(locked.standardOutput == "")
        #expect(
            locked.standardError
                == "coffer: file: \(a.path): the file is protected with NSFileProtectionComplete, whose class key is not available while the keychain is locked (NSCocoaErrorDomain 257)\n"
        )
        #expect(try cli.run(["file", "cat", d.path]).standardOutput == "class D")
        #expect(try cli.run(["file", "class", a.path]).standardOutput == "complete (NSFileProtectionComplete, class A)\n")
        if transport == .daemon {
            #expect(try cli.run(["unlock"], input: "file-code\n").status == 0)
            #expect(try cli.run(["file", "cat", a.path]).standardOutput == "class A")
        }
    }

    /// The swap a probe found: `cp other config; coffer file cat config` printed `other`'s content and exited 0. Each
    /// protected file opens only at its own path now; `coffer file mv` moves one, and a folder receives it by name.
    @Test(arguments: CLITransport.allCases)
    func aSwappedFileIsRefusedAndMvMovesOne(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        let cli = fixture.cli
        let config = try fixture.file("config", Data("config content".utf8))
        let other = try fixture.file("other", Data("other content".utf8))
        #expect(try cli.run(["file", "protect", config.path]).status == 0)
        #expect(try cli.run(["file", "protect", other.path]).status == 0)
        let kept = try Data(contentsOf: config)
        try Data(contentsOf: other).write(to: config)
        let swapped = try cli.run(["file", "cat", config.path])
        #expect(swapped.status == 1)
        #expect(swapped.standardOutput == "")
        #expect(swapped.standardError.contains("belongs at another path"))
        try kept.write(to: config)

        let folder = fixture.scratch.appendingPathComponent("moved")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let moved = try cli.run(["file", "mv", other.path, folder.path])
        #expect(moved.status == 0, "\(moved.standardError)")
        #expect(!FileManager.default.fileExists(atPath: other.path))
        #expect(try cli.run(["file", "cat", folder.appendingPathComponent("other").path]).standardOutput == "other content")
        #expect(try cli.run(["file", "cat", config.path]).standardOutput == "config content")
        let missing = try cli.run(["file", "mv", other.path, config.path])
        #expect(missing.status == 1)
        #expect(try cli.run(["file", "cat", config.path]).standardOutput == "config content")
    }

    @Test func aDamagedFileIsRefusedAndNothingIsPrinted() throws {
        let fixture = try KeyCLIFixture(.embedded)
        let file = try fixture.file("f", Data("some content".utf8))
        #expect(try fixture.cli.run(["file", "protect", file.path]).status == 0)
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 20] ^= 1
        try bytes.write(to: file)
        let cat = try fixture.cli.run(["file", "cat", file.path])
        #expect(cat.status == 1)
        #expect(cat.standardOutput == "")
        #expect(
            cat.standardError.hasSuffix(
                "chunk 0, the last, fails its authentication (changed, moved, or the file was cut or extended) (NSCocoaErrorDomain 259)\n"))
    }
}
