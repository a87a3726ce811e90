import Foundation
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// The source release of a Python client library, for its own test suite: Debian installs the library but not
/// its tests. Fetched once from PyPI with pip (the version Debian 12 ships, so the suite tests the library in
/// use), checked against its SHA-256, and unpacked under `/tmp/coffer-test-sources`, shared by the tests.
struct ClientSuiteSource {
    /// The distribution's name on PyPI.
    let name: String
    /// Its version: Debian 12's.
    let version: String
    /// The SHA-256 of its source archive.
    let sha256: String
    /// The folder the archive unpacks to.
    let folder: String

    static let secretStorage = ClientSuiteSource(
        name: "SecretStorage", version: "3.3.3", sha256: "2403533ef369eca6d2ba81718576c5e0f564d5cca1b58f73a8b23e7d4eeebd77",
        folder: "SecretStorage-3.3.3")
    static let keyring = ClientSuiteSource(
        name: "keyring", version: "23.9.3", sha256: "69b01dd83c42f590250fe7a1f503fc229b14de83857314b1933a3ddbf595c4a5",
        folder: "keyring-23.9.3")

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private static let cache = "/tmp/coffer-test-sources"

    /// The unpacked source folder, fetched and checked first when it is not there yet.
    func unpacked() throws -> String {
        try FileManager.default.createDirectory(atPath: Self.cache, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let lock = open("\(Self.cache)/.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw Failure(description: "cannot open \(Self.cache)/.lock") }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        let unpacked = "\(Self.cache)/\(folder)"
        let done = "\(unpacked)/.coffer-checked"
        if FileManager.default.fileExists(atPath: done) { return unpacked }
        let archive = "\(Self.cache)/\(folder).tar.gz"
        if !FileManager.default.fileExists(atPath: archive) {
            let fetched = try ChildProcess.run(
                ["/usr/bin/python3", "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "--dest", Self.cache, "\(name)==\(version)"],
                timeout: .seconds(300))
            guard fetched.status == 0 else { throw Failure(description: "pip download \(name)==\(version) failed: \(fetched.errorText.suffix(1_000))") }
        }
        let digest = try ChildProcess.run(["/usr/bin/sha256sum", archive])
        guard digest.outputText.hasPrefix(sha256) else {
            try? FileManager.default.removeItem(atPath: archive)
            throw Failure(description: "\(archive) is not the release it should be (SHA-256 \(digest.outputText.prefix(64)))")
        }
        try? FileManager.default.removeItem(atPath: unpacked)
        let extracted = try ChildProcess.run(["/bin/tar", "-xzf", archive, "-C", Self.cache])
        guard extracted.status == 0 else { throw Failure(description: "cannot unpack \(archive): \(extracted.errorText)") }
        guard FileManager.default.createFile(atPath: done, contents: Data()) else { throw Failure(description: "cannot write \(done)") }
        return unpacked
    }
}
