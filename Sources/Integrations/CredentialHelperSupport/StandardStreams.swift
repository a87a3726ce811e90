import Foundation

/// Standard input and output as a credential helper uses them: bytes, never through a command line.
public enum StandardStreams {
    /// The most a helper reads from standard input: git's lines are at most 65,535 bytes, docker's JSON
    /// holds one credential.
    public static let inputLimit = 1 << 20

    /// Standard input to its end (at most ``inputLimit`` bytes; nil past it).
    public static func readInput() -> Data? {
        var data = Data()
        while let chunk = try? FileHandle.standardInput.read(upToCount: 65_536), !chunk.isEmpty {
            data.append(chunk)
            if data.count > inputLimit { return nil }
        }
        return data
    }

    /// Writes `data` to standard output.
    public static func write(_ data: Data) {
        FileHandle.standardOutput.write(data)
    }

    /// Writes `text` to standard output.
    public static func write(_ text: String) {
        write(Data(text.utf8))
    }

    /// Writes `line` and a newline to standard error.
    public static func writeError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
