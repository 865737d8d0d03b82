import Foundation

/// Numbers and the literals `true`, `false` and `null`, plus the small helpers the parser shares.
extension JSONParser.Scanner {
    mutating func parseNumber() throws -> Double {
        let start = position
        var isSimpleInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count else { throw truncated(expecting: "digits after '-'") }
        if bytes[position] == UInt8(ascii: "I") {
            throw Failure(kind: .nonFiniteNumber(wordAt(start)), offset: start)
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw Failure(kind: .invalidNumber(numberText(from: start)), offset: start)
            }
        } else if isDigit(bytes[position]) {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        } else {
            throw Failure(kind: .invalidNumber(numberText(from: start)), offset: start)
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isSimpleInteger = false
            position += 1
            guard position < bytes.count else { throw truncated(expecting: "digits after '.'") }
            guard isDigit(bytes[position]) else {
                throw Failure(kind: .invalidNumber(numberText(from: start)), offset: start)
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isSimpleInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count else { throw truncated(expecting: "exponent digits") }
            guard isDigit(bytes[position]) else {
                throw Failure(kind: .invalidNumber(numberText(from: start)), offset: start)
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let length = position - start
        if isSimpleInteger && length <= 16 {
            var value = 0
            var index = start
            let negative = bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            while index < position {
                value = value &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0"))
                index += 1
            }
            return Double(negative ? -value : value)
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw Failure(kind: .nonFiniteNumber(text), offset: start)
        }
        return value
    }

    mutating func expectLiteral(_ literal: StaticString) throws {
        let start = position
        let count = literal.utf8CodeUnitCount
        let expected = literal.withUTF8Buffer { Array($0) }
        for index in 0..<count {
            guard position < bytes.count else { throw truncated(expecting: "'\(literal)'") }
            guard bytes[position] == expected[index] else {
                throw Failure(
                    kind: .unexpectedCharacter(found: "'\(wordAt(start))'", expected: "a value such as '\(literal)'"),
                    offset: start)
            }
            position += 1
        }
    }



    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    func peek(_ byte: UInt8) -> Bool {
        position < bytes.count && bytes[position] == byte
    }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    func truncated(expecting expected: String) -> Failure {
        Failure(kind: .truncated(expected: expected), offset: bytes.count)
    }

    func unexpected(expecting expected: String) -> Failure {
        guard position < bytes.count else { return truncated(expecting: expected) }
        if bytes[position] >= 0x80,
           Self.firstInvalidUTF8Offset(in: UnsafeBufferPointer(rebasing: bytes[position..<min(bytes.count, position + 4)])) == 0
        {
            return Failure(kind: .invalidUTF8, offset: position)
        }
        return Failure(kind: .unexpectedCharacter(found: describeByte(at: position), expected: expected), offset: position)
    }

    func wordAt(_ start: Int) -> String {
        var end = start
        while end < bytes.count, end - start < 24,
              bytes[end] == UInt8(ascii: "-") || (bytes[end] < 0x80 && Character(Unicode.Scalar(bytes[end])).isLetter)
        {
            end += 1
        }
        return String(decoding: bytes[start..<max(end, start + 1)], as: UTF8.self)
    }

    func numberText(from start: Int) -> String {
        var end = position
        while end < bytes.count, end - start < 32, !(bytes[end] == 0x20 || bytes[end] == UInt8(ascii: ",")
            || bytes[end] == UInt8(ascii: "}") || bytes[end] == UInt8(ascii: "]") || bytes[end] < 0x20)
        {
            end += 1
        }
        return String(decoding: bytes[start..<max(end, start + 1)], as: UTF8.self)
    }

    func describeByte(at offset: Int) -> String {
        let byte = bytes[offset]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        switch byte {
        case 0x20: return "a space"
        case 0x0A: return "a line break"
        case 0x09: return "a tab"
        case 0x00: return "a NUL byte"
        default:
            if byte >= 0x80 {
                let end = min(bytes.count, offset + 4)
                if let scalar = String(decoding: bytes[offset..<end], as: UTF8.self).unicodeScalars.first,
                   scalar != "\u{FFFD}"
                {
                    return "'\(scalar)'"
                }
            }
            return "byte 0x\(String(byte, radix: 16, uppercase: true).leftPadded(to: 2))"
        }
    }
}
