import KeychainModel

/// The client side of an Assuan conversation with pinentry: commands out, `OK`/`ERR`/`D` lines back, every
/// wait bounded by the conversation's deadline and every line by Assuan's length limit.
struct AssuanSession {
    /// Lines longer than this, either way, are a protocol error (Assuan's limit is 1000 bytes).
    static let maximumLineLength = 1000
    /// The longest passcode accepted, in bytes (the terminal's limit too).
    static let maximumPasscodeLength = SecretLineReader.standardLimit
    /// GPG error codes (the low 16 bits of an `ERR` number; the high bits name the source, 5 for pinentry)
    /// that mean the person cancelled: GPG_ERR_CANCELED and GPG_ERR_FULLY_CANCELED.
    static let cancelledCodes: Set<UInt32> = [99, 198]
    /// GPG_ERR_TIMEOUT: the dialog's `SETTIMEOUT` ran out.
    static let timeoutCode: UInt32 = 62

    /// The program, named in failures.
    let program: String
    /// The descriptor the program's lines are read from.
    let input: Int32
    /// The descriptor commands are written to.
    let output: Int32
    /// When the conversation must be over.
    let deadline: Deadline

    /// Sends one command line.
    func send(_ line: String) throws(PromptFailure) {
        let bytes = Array(line.utf8)
        guard bytes.count <= Self.maximumLineLength else {
            let command = line.prefix { $0 != " " }
            throw .unavailable("the \(command) line for \(program) is longer than Assuan's \(Self.maximumLineLength) bytes")
        }
        switch DescriptorIO.writeAll(bytes + [UInt8(ascii: "\n")], to: output, until: deadline) {
        case .written: return
        case .closed: throw .unavailable("\(program) closed the conversation")
        case .timedOut: throw .timedOut
        }
    }

    /// Sends a command and expects `OK`.
    func command(_ line: String) throws(PromptFailure) {
        try send(line)
        try expectOK()
    }

    /// Reads lines up to `OK`; `ERR` is a failure (or the person's cancel, or the dialog's time-out).
    func expectOK() throws(PromptFailure) {
        let line = AssuanLine()
        while true {
            try readLine(into: line)
            if line.isResponse("OK") { return }
            if line.isResponse("ERR") { throw failure(line) }
            if line.isResponse("INQUIRE") { try send("CAN") }
            // Comments ("#") and status lines ("S") carry nothing we need.
        }
    }

    /// Sends `GETPIN` and decodes its `D` lines into secret bytes; the bytes read are zeroized.
    func getPin() throws(PromptFailure) -> SecretBytes {
        try send("GETPIN")
        let line = AssuanLine()
        // Reserved at its largest size, so appending never leaves a copy behind.
        var passcode: [UInt8] = []
        passcode.reserveCapacity(Self.maximumPasscodeLength)
        defer { passcode.zeroize() }
        while true {
            try readLine(into: line)
            if line.hasPrefix("D ") {
                guard line.appendData(to: &passcode, limit: Self.maximumPasscodeLength) else {
                    throw .unavailable("the passcode from \(program) is longer than \(Self.maximumPasscodeLength) bytes")
                }
            } else if line.isResponse("OK") {
                return SecretBytes(copying: passcode)
            } else if line.isResponse("ERR") {
                throw failure(line)
            } else if line.isResponse("INQUIRE") {
                try send("CAN")
            }
        }
    }

    /// Sends `BYE`, without waiting for the answer; a program already gone is no failure.
    func sayGoodbye() {
        let briefly = AssuanSession(program: program, input: input, output: output, deadline: .after(.milliseconds(200)))
        try? briefly.send("BYE")
    }

    /// What an `ERR` line means.
    private func failure(_ line: AssuanLine) -> PromptFailure {
        let text = line.text(droppingPrefix: 4)
        let number = UInt32(text.prefix { $0.isASCII && $0.isNumber }) ?? 0
        if Self.cancelledCodes.contains(number & 0xFFFF) { return .cancelled }
        if number & 0xFFFF == Self.timeoutCode { return .timedOut }
        return .unavailable("\(program) answered ERR \(text)")
    }

    /// Reads one line into `line` (emptied first, zeroized as it is), byte by byte.
    private func readLine(into line: AssuanLine) throws(PromptFailure) {
        line.zeroize()
        while true {
            switch DescriptorIO.readByte(from: input, until: deadline) {
            case .byte(UInt8(ascii: "\n")):
                return
            case .byte(let byte):
                guard !line.isFull else { throw .unavailable("\(program) sent a line longer than Assuan's \(Self.maximumLineLength) bytes") }
                line.append(byte)
            case .end:
                throw .unavailable("\(program) closed the conversation")
            case .timedOut:
                throw .timedOut
            }
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
}
