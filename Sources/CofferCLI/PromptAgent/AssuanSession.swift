import CCofferSystem
import Foundation
import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// The client side of an Assuan conversation with pinentry: commands out, `OK`/`ERR`/`D` lines back.
struct AssuanSession {
    /// Lines longer than this are a protocol error (Assuan's limit is 1000 bytes).
    static let maximumLineLength = 1000
    /// Assuan's error code for a cancelled dialog (GPG_ERR_CANCELED in the pinentry source).
    static let cancelledCode = "83886179"

    let input: Int32
    let output: Int32

    /// Sends one command line.
    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Sends a command and expects `OK`.
    func command(_ line: String) throws(Pinentry.Failure) {
        send(line)
        try expectOK()
    }

    /// Reads lines up to `OK`; `ERR` is a failure (or the person's cancel).
    func expectOK() throws(Pinentry.Failure) {
        while true {
            let line = try readLine()
            defer { line.zeroize() }
            if line.hasPrefix("OK") { return }
            if line.hasPrefix("ERR") { throw failure(line) }
            // Comments ("#") and status lines ("S") carry nothing we need.
        }
    }

    /// Sends `GETPIN` and decodes the `D` line into secret bytes.
    func getPin() throws(Pinentry.Failure) -> SecretBytes {
        send("GETPIN")
        var passcode: SecretBytes?
        while true {
            let line = try readLine()
            defer { line.zeroize() }
            if line.hasPrefix("D ") {
                passcode = line.unescapedData()
            } else if line.hasPrefix("OK") {
                return passcode ?? SecretBytes(copying: [UInt8]())
            } else if line.hasPrefix("ERR") {
                throw failure(line)
            }
        }
    }

    private func failure(_ line: Line) -> Pinentry.Failure {
        line.hasPrefix("ERR \(Self.cancelledCode)") ? .cancelled : .failed(line.text(droppingPrefix: 4))
    }

    /// Reads one line, byte by byte, into a buffer that is zeroized after use.
    private func readLine() throws(Pinentry.Failure) -> Line {
        let line = Line()
        var byte: UInt8 = 0
        while true {
            let count = read(input, &byte, 1)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { throw .failed("pinentry closed the conversation") }
            if byte == UInt8(ascii: "\n") { return line }
            guard line.bytes.count < Self.maximumLineLength else { throw .failed("pinentry sent a line that is too long") }
            line.bytes.append(byte)
        }
    }

    /// Percent-escapes what Assuan forbids in a command's argument.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": escaped += "%25"
            case "\n": escaped += "%0A"
            case "\r": escaped += "%0D"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// One received line; its bytes are zeroized when done, since a `D` line holds the passcode. The
    /// buffer is reserved at its largest size up front, so growing it never leaves a copy behind.
    final class Line {
        var bytes: [UInt8] = []

        init() { bytes.reserveCapacity(AssuanSession.maximumLineLength + 1) }

        func hasPrefix(_ prefix: String) -> Bool { bytes.starts(with: Array(prefix.utf8)) }

        /// The text after `count` bytes, for error messages (never used on a `D` line).
        func text(droppingPrefix count: Int) -> String { String(decoding: bytes.dropFirst(count), as: UTF8.self) }

        /// The data of a `D` line with its percent escapes decoded.
        func unescapedData() -> SecretBytes {
            let payload = bytes.dropFirst(2)
            return SecretBytes(capacity: payload.count) { buffer in
                var count = 0
                var index = payload.startIndex
                while index < payload.endIndex {
                    if payload[index] == UInt8(ascii: "%"), index + 2 < payload.endIndex,
                       let high = hexValue(payload[index + 1]), let low = hexValue(payload[index + 2]) {
                        buffer[count] = high << 4 | low
                        index += 3
                    } else {
                        buffer[count] = payload[index]
                        index += 1
                    }
                    count += 1
                }
                return count
            }
        }

        func zeroize() {
            bytes.withUnsafeMutableBytes { raw in
                guard let base = raw.baseAddress else { return }
                coffer_secure_zero(base, raw.count)
            }
            bytes.removeAll()
        }

        private func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            default: nil
            }
        }
    }
}
