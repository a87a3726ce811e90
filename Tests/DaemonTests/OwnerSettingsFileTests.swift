import Foundation
import ProgramIdentity
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Settings that weaken a boundary are read only from a file root alone could have written.
@Suite("Settings files only the owner could write", .timeLimit(.minutes(10)))
struct OwnerSettingsFileTests {
    @Test func linesAreKeysAndValuesWithCommentsAndBlanksLeftOut() {
        let parsed = OwnerSettingsFile.parse("# a comment\n\n  isolation =  shared \r\nno equals sign\nisolation=per-program\nempty =\n")
        #expect(parsed == ["isolation": "per-program", "empty": ""])
    }

    @Test func aMissingFileIsAbsentAndARelativePathIsNotRead() {
        #expect(OwnerSettingsFile.read("/nonexistent-coffer-folder/settings.conf") == .absent)
        guard case .untrusted(let reason) = OwnerSettingsFile.read("settings.conf") else {
            Issue.record("a relative path was read")
            return
        }
        #expect(reason.contains("not an absolute path"))
    }

    @Test(.enabled(if: getuid() == 0, "needs root to make root-owned settings files"))
    func onlyAFileAndFoldersOfRootsAloneAreRead() throws {
        var template = Array("/tmp/coffer-owner-settings-XXXXXX".utf8CString)
        let folder = try #require(mkdtemp(&template).map { String(cString: $0) })
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/settings.conf"
        try "isolation = shared\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, 0o644) == 0)
        #expect(OwnerSettingsFile.read(path) == .settings(["isolation": "shared"]))

        #expect(chmod(path, 0o664) == 0)
        #expect(reason(OwnerSettingsFile.read(path))?.contains("writable by others than root") == true)
        #expect(chmod(path, 0o644) == 0 && chown(path, 65_534, 0) == 0)
        #expect(reason(OwnerSettingsFile.read(path))?.contains("belongs to uid 65534, not root") == true)
        #expect(chown(path, 0, 0) == 0)
        // A folder above it that others may write (without the sticky bit) lets them replace the file.
        #expect(chmod(folder, 0o777) == 0)
        #expect(reason(OwnerSettingsFile.read(path))?.contains("\(folder) is writable by others than root") == true)
        #expect(chmod(folder, 0o1777) == 0)
        #expect(OwnerSettingsFile.read(path) == .settings(["isolation": "shared"]))
        #expect(chmod(folder, 0o700) == 0)
        // A symbolic link is never followed to its target.
        let link = "\(folder)/link.conf"
        #expect(symlink(path, link) == 0)
        #expect(reason(OwnerSettingsFile.read(link)) != nil)
    }

    private func reason(_ contents: OwnerSettingsFile.Contents) -> String? {
        if case .untrusted(let reason) = contents { return reason }
        return nil
    }
}
