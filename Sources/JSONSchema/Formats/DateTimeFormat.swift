/// RFC 3339 `full-date`, `full-time`, `date-time` and appendix A `duration`.
enum DateTimeFormat {
    static func isDateTime(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 11, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") else { return false }
        return isDate(bytes[..<10]) && isTime(bytes[11...])
    }

    static func isDate(_ bytes: ArraySlice<UInt8>) -> Bool {
        let bytes = Array(bytes)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
              (1...12).contains(month), day >= 1
        else { return false }
        return day <= daysIn(month: month, year: year)
    }

    static func isTime(_ bytes: ArraySlice<UInt8>) -> Bool {
        let bytes = Array(bytes)
        guard bytes.count >= 9, bytes[2] == UInt8(ascii: ":"), bytes[5] == UInt8(ascii: ":"),
              let hour = number(bytes, 0, 2), let minute = number(bytes, 3, 2), let second = number(bytes, 6, 2),
              hour <= 23, minute <= 59, second <= 60
        else { return false }
        var index = 8
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, isASCIIDigit(bytes[index]) { index += 1 }
            guard index > start else { return false }
        }
        guard index < bytes.count else { return false }
        var offsetMinutes = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return false }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard bytes.count - index == 6, bytes[index + 3] == UInt8(ascii: ":"),
                  let offsetHour = number(bytes, index + 1, 2), let offsetMinute = number(bytes, index + 4, 2),
                  offsetHour <= 23, offsetMinute <= 59
            else { return false }
            offsetMinutes = (offsetHour * 60 + offsetMinute) * (bytes[index] == UInt8(ascii: "+") ? 1 : -1)
        default:
            return false
        }
        if second == 60 {
            // A leap second happens at 23:59:60 UTC only.
            let utc = ((hour * 60 + minute - offsetMinutes) % 1440 + 1440) % 1440
            return utc == 23 * 60 + 59
        }
        return true
    }

    /// ISO 8601 durations as RFC 3339 appendix A restricts them.
    static func isDuration(_ bytes: [UInt8]) -> Bool {
        guard bytes.first == UInt8(ascii: "P"), bytes.count > 1 else { return false }
        var index = 1
        var dateUnits: [UInt8] = [], timeUnits: [UInt8] = []
        var inTime = false
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "T") {
                guard !inTime else { return false }
                inTime = true
                index += 1
                guard index < bytes.count else { return false }
                continue
            }
            let start = index
            while index < bytes.count, isASCIIDigit(bytes[index]) { index += 1 }
            guard index > start, index < bytes.count else { return false }
            if inTime { timeUnits.append(bytes[index]) } else { dateUnits.append(bytes[index]) }
            index += 1
        }
        if inTime && timeUnits.isEmpty { return false }
        if dateUnits == [UInt8(ascii: "W")] { return timeUnits.isEmpty }
        return isOrderedRun(dateUnits, of: Array("YMD".utf8)) && isOrderedRun(timeUnits, of: Array("HMS".utf8))
            && !(dateUnits.isEmpty && timeUnits.isEmpty)
    }

    /// `units` is empty or a contiguous run of `order` (Y, YM, YMD, M, MD, D).
    private static func isOrderedRun(_ units: [UInt8], of order: [UInt8]) -> Bool {
        guard let first = units.first else { return true }
        guard let start = order.firstIndex(of: first), start + units.count <= order.count else { return false }
        return Array(order[start..<(start + units.count)]) == units
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ length: Int) -> Int? {
        guard start + length <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<(start + length)] {
            guard isASCIIDigit(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
