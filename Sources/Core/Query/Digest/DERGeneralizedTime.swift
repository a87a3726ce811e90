import Foundation

/// The body of a GeneralizedTime as Apple's `der_date.c` writes a `CFDate`: `YYYYMMDDhhmmss[.fraction]Z` in UTC.
///
/// - The calendar fields are those of the whole second at or before the time (`CFCalendarDecomposeAbsoluteTime`
///   on the Gregorian calendar, which counts milliseconds and floors, also before 2001).
/// - The fraction is the part after the decimal point of the shortest decimal that reads back as the same
///   `Double` (`__dtoa` mode 0), so 1.5 gives `.5` and a whole second gives no fraction at all. Before 2001 the
///   time is negative and its digits are complemented (10 − the last digit, 9 − the others, 9s filling in the
///   leading zeros), which gives the fraction of the second the floor points at: −0.25 → `.75` of 23:59:59.
public enum DERGeneralizedTime {
    /// Seconds from 1970 to 2001 (`kCFAbsoluteTimeIntervalSince1970`).
    private static let intervalSince1970 = 978_307_200.0

    /// The Gregorian calendar in UTC (like CFCalendar's, Julian before October 1582).
    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()

    /// The ASCII body for `absoluteTime` (seconds since 2001-01-01 00:00:00 UTC).
    public static func body(of absoluteTime: Double) -> Data { Data(bodyBytes(of: absoluteTime)) }

    /// The ASCII bytes of ``body(of:)``.
    static func bodyBytes(of absoluteTime: Double) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        appendCalendarFields(of: absoluteTime, to: &bytes)
        if let fraction = fractionDigits(of: absoluteTime) {
            bytes.append(UInt8(ascii: "."))
            bytes.append(contentsOf: fraction)
        }
        bytes.append(UInt8(ascii: "Z"))
        return bytes
    }

    /// `YYYYMMDDhhmmss` of the whole second at or before the time.
    static func calendarFields(of absoluteTime: Double) -> String {
        var bytes: [UInt8] = []
        appendCalendarFields(of: absoluteTime, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendCalendarFields(of absoluteTime: Double, to bytes: inout [UInt8]) {
        // As CFCalendar hands the time to ICU: milliseconds since 1970; ICU floors to days, then truncates
        // the milliseconds within the day.
        let milliseconds = (absoluteTime + intervalSince1970) * 1000.0
        let days = (milliseconds / 86_400_000.0).rounded(.down)
        let secondOfDay = Int((milliseconds - days * 86_400_000.0).rounded(.towardZero)) / 1000
        let fields: (year: Int, month: Int, day: Int)
        if days >= Double(gregorianFrom), days <= Double(gregorianThrough) {
            fields = civilDate(daysSince1970: Int(days))
        } else {
            // Before 1583 CFCalendar's calendar is Julian, and years past 9999 are not written in four digits:
            // the calendar decides.
            let wholeSecond = Date(timeIntervalSince1970: days * 86_400.0 + Double(secondOfDay))
            let components = utcCalendar.dateComponents([.year, .month, .day], from: wholeSecond)
            fields = (components.year ?? 0, components.month ?? 0, components.day ?? 0)
        }
        appendPadded(fields.year, width: 4, to: &bytes)
        appendPadded(fields.month, width: 2, to: &bytes)
        appendPadded(fields.day, width: 2, to: &bytes)
        appendPadded(secondOfDay / 3_600, width: 2, to: &bytes)
        appendPadded(secondOfDay / 60 % 60, width: 2, to: &bytes)
        appendPadded(secondOfDay % 60, width: 2, to: &bytes)
    }

    /// Days from 1970-01-01 to 1583-01-01 and to 9999-12-31: the span where the proleptic Gregorian
    /// arithmetic below is the calendar's answer.
    private static let gregorianFrom = -141_349
    private static let gregorianThrough = 2_932_896

    /// The Gregorian year, month and day `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func appendPadded(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        let digits = Array(String(value).utf8)
        if digits.count < width { bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count)) }
        bytes.append(contentsOf: digits)
    }

    /// The fraction digits Apple writes after the point, or nil when the time is a whole second.
    static func fractionDigits(of absoluteTime: Double) -> [UInt8]? {
        guard absoluteTime.isFinite, let (digits, pointPosition) = shortestDigits(of: absoluteTime.magnitude)
        else { return nil }
        guard digits.count > pointPosition else { return nil }
        var fraction = Array(digits.dropFirst(max(pointPosition, 0)))
        if absoluteTime < 0, !fraction.isEmpty {
            // 1 − fraction, digit by digit: the last digit borrows, every other one is a 9's complement.
            let last = fraction.count - 1
            for index in fraction.indices {
                let digit = fraction[index] - UInt8(ascii: "0")
                fraction[index] = UInt8(ascii: "0") + (index == last ? 10 - digit : 9 - digit)
            }
        }
        let filler = repeatElement(UInt8(ascii: absoluteTime < 0 ? "9" : "0"), count: max(0, -pointPosition))
        return Array(filler) + fraction
    }

    /// The significant digits of the shortest round-trip decimal of `value` (no leading or trailing zeros)
    /// and the position of the decimal point relative to the first of them, as `__dtoa` mode 0 returns them;
    /// nil for zero.
    static func shortestDigits(of value: Double) -> (digits: [UInt8], pointPosition: Int)? {
        // Swift's description is the shortest round-trip decimal too, written plainly ("750000000.25") or with
        // an exponent ("1e-05", "1.5e+16").
        var digits: [UInt8] = []
        digits.reserveCapacity(24)
        var integerCount = 0
        var seenPoint = false
        var exponent = 0
        var exponentText: [UInt8]?
        for byte in value.description.utf8 {
            if exponentText != nil {
                exponentText!.append(byte)
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                exponentText = []
            } else if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else {
                digits.append(byte)
                if !seenPoint { integerCount += 1 }
            }
        }
        if let exponentText { exponent = Int(String(decoding: exponentText, as: UTF8.self)) ?? 0 }
        var pointPosition = integerCount + exponent
        var first = 0
        while first < digits.count, digits[first] == UInt8(ascii: "0") {
            first += 1
            pointPosition -= 1
        }
        var end = digits.count
        while end > first, digits[end - 1] == UInt8(ascii: "0") { end -= 1 }
        return first == end ? nil : (Array(digits[first..<end]), pointPosition)
    }
}
