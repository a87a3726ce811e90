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
    public static func body(of absoluteTime: Double) -> Data {
        var text = calendarFields(of: absoluteTime)
        if let fraction = fractionDigits(of: absoluteTime) { text += "." + fraction }
        return Data((text + "Z").utf8)
    }

    /// `YYYYMMDDhhmmss` of the whole second at or before the time.
    static func calendarFields(of absoluteTime: Double) -> String {
        // As CFCalendar hands the time to ICU: milliseconds since 1970; ICU floors to days, then truncates
        // the milliseconds within the day.
        let milliseconds = (absoluteTime + intervalSince1970) * 1000.0
        let days = (milliseconds / 86_400_000.0).rounded(.down)
        let secondOfDay = Int((milliseconds - days * 86_400_000.0).rounded(.towardZero)) / 1000
        let wholeSecond = Date(timeIntervalSince1970: days * 86_400.0 + Double(secondOfDay))
        let fields = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: wholeSecond)
        func pad(_ value: Int?, _ width: Int) -> String {
            let digits = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(fields.year, 4) + pad(fields.month, 2) + pad(fields.day, 2) + pad(fields.hour, 2)
            + pad(fields.minute, 2) + pad(fields.second, 2)
    }

    /// The fraction digits Apple writes after the point, or nil when the time is a whole second.
    static func fractionDigits(of absoluteTime: Double) -> String? {
        guard absoluteTime.isFinite, let (digits, pointPosition) = shortestDigits(of: absoluteTime.magnitude)
        else { return nil }
        guard digits.count > pointPosition else { return nil }
        var fraction = Array(digits.dropFirst(max(pointPosition, 0)))
        if absoluteTime < 0, !fraction.isEmpty {
            // 1 − fraction, digit by digit: the last digit borrows, every other one is a 9's complement.
            let last = fraction.count - 1
            for index in fraction.indices {
                let digit = Int(fraction[index].asciiValue! - 48)
                fraction[index] = Character(String(index == last ? 10 - digit : 9 - digit))
            }
        }
        let filler = String(repeating: absoluteTime < 0 ? "9" : "0", count: max(0, -pointPosition))
        return filler + String(fraction)
    }

    /// The significant digits of the shortest round-trip decimal of `value` (no leading or trailing zeros)
    /// and the position of the decimal point relative to the first of them, as `__dtoa` mode 0 returns them;
    /// nil for zero.
    static func shortestDigits(of value: Double) -> (digits: String, pointPosition: Int)? {
        // Swift's description is the shortest round-trip decimal too, written plainly ("750000000.25") or with
        // an exponent ("1e-05", "1.5e+16").
        let text = value.description.lowercased()
        let parts = text.split(separator: "e", maxSplits: 1)
        let exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
        let mantissa = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integerPart = String(mantissa[0])
        let fractionPart = mantissa.count == 2 ? String(mantissa[1]) : ""
        var digits = Substring(integerPart + fractionPart)
        var pointPosition = integerPart.count + exponent
        while digits.first == "0" {
            digits.removeFirst()
            pointPosition -= 1
        }
        while digits.last == "0" { digits.removeLast() }
        return digits.isEmpty ? nil : (String(digits), pointPosition)
    }
}
