/// The records of a CSV file (RFC 4180): fields separated by commas, records by CRLF or LF, a field in double
/// quotes may hold commas, line breaks and doubled quotes. A quote left open is an error, never a silent record.
enum CSVRecords {
    struct Unterminated: Error {
        /// The 1-based line where the open quoted field began.
        let line: Int
    }

    static func parse(_ text: String) throws(Unterminated) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var fieldWasQuoted = false
        var line = 1
        var quoteLine = 1
        var characters = text.makeIterator()
        var pending: Character? = nil
        func next() -> Character? {
            if let character = pending {
                pending = nil
                return character
            }
            return characters.next()
        }
        while let character = next() {
            if quoted {
                if character == "\"" {
                    if let following = next() {
                        if following == "\"" {
                            field.append("\"")
                        } else {
                            quoted = false
                            pending = following
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    if character == "\n" || character == "\r\n" { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"" where field.isEmpty && !fieldWasQuoted:
                quoted = true
                fieldWasQuoted = true
                quoteLine = line
            case ",":
                record.append(field)
                field = ""
                fieldWasQuoted = false
            case "\n", "\r\n", "\r":
                line += 1
                record.append(field)
                if !(record.count == 1 && record[0].isEmpty && !fieldWasQuoted) { records.append(record) }
                record = []
                field = ""
                fieldWasQuoted = false
            default:
                field.append(character)
            }
        }
        if quoted { throw Unterminated(line: quoteLine) }
        if !field.isEmpty || fieldWasQuoted || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        return records
    }
}
