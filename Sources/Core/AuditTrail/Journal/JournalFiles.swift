import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The files of a journal, in a folder of its own (0700): `segment-00000001.log`… (0600), oldest first, and `head`.
struct JournalFiles: Sendable {
    let folder: String

    var headPath: String { folder + "/head" }

    func segmentPath(_ number: UInt32) -> String { folder + "/segment-" + String(format: "%08u", number) + ".log" }

    /// The segment numbers present, oldest first.
    func segmentNumbers() throws(AuditJournalError) -> [UInt32] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw .unreadable("cannot list the audit folder \(folder)")
        }
        return names.compactMap { name -> UInt32? in
            guard name.hasPrefix("segment-"), name.hasSuffix(".log") else { return nil }
            return UInt32(name.dropFirst(8).dropLast(4))
        }.sorted()
    }

    /// The folder, made 0700 when missing; one with wider permissions is refused.
    func prepare() throws(AuditJournalError) {
        if mkdir(folder, 0o700) != 0, errno != EEXIST { throw .unwritable("cannot make the audit folder \(folder): \(Self.reason())") }
        var status = stat()
        guard stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { throw .unwritable("\(folder) is not a folder") }
        guard status.st_mode & 0o077 == 0 else {
            throw .unwritable("the audit folder \(folder) is open to others (mode \(String(status.st_mode & 0o777, radix: 8)))")
        }
    }

    /// The whole content of the file at `path`.
    static func read(_ path: String) throws(AuditJournalError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable("cannot read \(path)") }
        return Array(data)
    }

    /// The size of the file at `path` and its last `count` bytes (fewer when it is shorter); nil when it cannot be read.
    static func end(of path: String, count: Int) -> (size: Int, bytes: [UInt8])? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        let size = Int(status.st_size)
        let wanted = min(count, size)
        var bytes = [UInt8](repeating: 0, count: wanted)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(size - wanted)) }
        return read == wanted ? (size, bytes) : nil
    }

    /// The first `count` bytes of the file at `path`; nil when it cannot be read or is shorter.
    static func start(of path: String, count: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
        return read == count ? bytes : nil
    }

    /// Opens (creating 0600) the file at `path` for appending.
    static func openForAppending(_ path: String) throws(AuditJournalError) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .unwritable("cannot open \(path): \(reason())") }
        return descriptor
    }

    /// Writes all of `bytes` at the descriptor's position (or at `offset`).
    static func write(_ bytes: [UInt8], to descriptor: Int32, at offset: off_t? = nil) -> Bool {
        var done = 0
        while done < bytes.count {
            let written = bytes[done...].withUnsafeBytes { buffer in
                offset.map { pwrite(descriptor, buffer.baseAddress, buffer.count, $0 + off_t(done)) }
                    ?? Glibc.write(descriptor, buffer.baseAddress, buffer.count)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            done += written
        }
        return true
    }

    static func reason() -> String { String(cString: strerror(errno)) }
}
