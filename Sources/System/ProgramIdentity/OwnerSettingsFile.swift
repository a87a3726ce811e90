import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// A settings file only the machine's owner can have written (``RootOwnedPath``: the file and every folder above it
/// root's alone). Settings that weaken a boundary — the Secret Service provider's isolation — are read
/// from such a file and never from the environment or the command line of whoever starts the program, which a
/// program of the user controls. A file that does not meet the rule is not read.
public enum OwnerSettingsFile {
    /// What reading a settings file found.
    public enum Contents: Sendable, Equatable {
        /// There is no file: the defaults apply.
        case absent
        /// The file's `key = value` lines (comments and blank lines left out); a key given twice keeps its last value.
        case settings([String: String])
        /// The file exists but someone other than root could have written it (the reason says who or what), or it
        /// could not be read: the defaults apply.
        case untrusted(String)
    }

    /// The longest settings file read.
    public static let maximumLength = 64 << 10

    /// Reads `path`'s settings if it and its folders are root's alone.
    public static func read(_ path: String) -> Contents {
        guard path.hasPrefix("/") else { return .untrusted("\(path) is not an absolute path") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            return errno == ENOENT ? .absent : .untrusted("\(path) cannot be opened (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        if let problem = RootOwnedPath.problem(descriptor: descriptor, openedFrom: path, kind: .file) { return .untrusted(problem) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .untrusted("\(path) cannot be examined") }
        guard status.st_size <= maximumLength else { return .untrusted("\(path) is longer than \(maximumLength) bytes") }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            filled += got
        }
        guard let text = String(validating: bytes[..<filled], as: UTF8.self) else { return .untrusted("\(path) is not UTF-8 text") }
        return .settings(parse(text))
    }

    /// The `key = value` lines of `text`: `#` starts a comment line, blanks around keys and values are dropped.
    public static func parse(_ text: String) -> [String: String] {
        var settings: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingBlanks
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            settings[String(trimmed[..<equals].trimmingBlanks)] = String(trimmed[trimmed.index(after: equals)...].trimmingBlanks)
        }
        return settings
    }
}

extension Substring {
    fileprivate var trimmingBlanks: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return text
    }
}
