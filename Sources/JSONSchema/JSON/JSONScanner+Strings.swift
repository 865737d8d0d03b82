import Foundation

/// String parsing: the escape-free fast path, escapes and surrogate pairs, UTF-8 validation.
extension JSONParser.Scanner {
    mutating func parseString() throws -> String {
        position += 1  // opening quote
        let start = position
        var isASCII = true
        // Eight bytes at a time: jump to the first quote, backslash, control or
        // non-ASCII byte; the closing quote ends the string here, anything
        // else but non-ASCII text goes to the byte loop below.
        while position + 8 <= bytes.count {
            let word = UnsafeRawPointer(bytes.baseAddress! + position).loadUnaligned(as: UInt64.self)
            let attention = Self.attention(word)
            if attention == 0 {
                position += 8
                continue
            }
            position += attention.trailingZeroBitCount >> 3
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return try makeString(slice, startOffset: start, isASCII: isASCII)
            }
            guard byte >= 0x80 else { break }
            isASCII = false
            position += 1
        }
        // A run with no escapes.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return try makeString(slice, startOffset: start, isASCII: isASCII)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 && !options.allowsControlCharactersInStrings {
                throw Failure(kind: .controlCharacterInString(byte), offset: position)
            }
            if byte >= 0x80 { isASCII = false }
            position += 1
        }
        guard position < bytes.count else { throw truncated(expecting: "the closing '\"' of a string") }
        return try parseEscapedString(from: start)
    }

    /// The high bit set in each byte of `word` that is a quote, a backslash, a
    /// control character or non-ASCII. The lowest set bit is exact; higher
    /// ones may be false alarms (a borrow from a lower byte).
    @inline(__always)
    static func attention(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl | word) & highs
    }

    mutating func parseEscapedString(from start: Int) throws -> String {
        var buffer = Array(bytes[start..<position])
        while position < bytes.count {
            // Copy the run up to the next quote, backslash or control byte whole.
            let runStart = position
            while position + 8 <= bytes.count {
                let attention = Self.attention(UnsafeRawPointer(bytes.baseAddress! + position).loadUnaligned(as: UInt64.self))
                if attention == 0 {
                    position += 8
                    continue
                }
                position += attention.trailingZeroBitCount >> 3
                guard bytes[position] >= 0x80 else { break }
                position += 1
            }
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                position += 1
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
            guard position < bytes.count else { break }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return try buffer.withUnsafeBufferPointer {
                    try makeString($0, startOffset: start, isASCII: false, mapsOffsets: false)
                }
            case UInt8(ascii: "\\"):
                try appendEscape(to: &buffer)
            default:
                if !options.allowsControlCharactersInStrings {
                    throw Failure(kind: .controlCharacterInString(byte), offset: position)
                }
                buffer.append(byte)
                position += 1
            }
        }
        throw truncated(expecting: "the closing '\"' of a string")
    }

    mutating func appendEscape(to buffer: inout [UInt8]) throws {
        let escapeStart = position
        position += 1
        guard position < bytes.count else { throw truncated(expecting: "an escape sequence") }
        let code = bytes[position]
        position += 1
        switch code {
        case UInt8(ascii: "\""): buffer.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): buffer.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): buffer.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalarValue = try readHex4(escapeStart: escapeStart)
            if (0xD800...0xDBFF).contains(scalarValue) {
                // A high surrogate must be followed by an escaped low surrogate.
                if position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                   bytes[position + 1] == UInt8(ascii: "u")
                {
                    let save = position
                    position += 2
                    let low = try readHex4(escapeStart: save)
                    if (0xDC00...0xDFFF).contains(low) {
                        scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        position = save
                        scalarValue = 0xFFFD
                    }
                } else {
                    scalarValue = 0xFFFD
                }
            } else if (0xDC00...0xDFFF).contains(scalarValue) {
                scalarValue = 0xFFFD
            }
            let scalar = Unicode.Scalar(scalarValue) ?? "\u{FFFD}"
            buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            let text = "\\" + String(decoding: [code], as: UTF8.self)
            throw Failure(kind: .invalidEscape(text), offset: escapeStart)
        }
    }

    mutating func readHex4(escapeStart: Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { throw truncated(expecting: "four hex digits after \\u") }
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default:
                let end = min(bytes.count, escapeStart + 6)
                let text = String(decoding: bytes[escapeStart..<end], as: UTF8.self)
                throw Failure(kind: .invalidEscape(text), offset: escapeStart)
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    func makeString(
        _ slice: UnsafeBufferPointer<UInt8>, startOffset: Int, isASCII: Bool, mapsOffsets: Bool = true
    ) throws -> String {
        if isASCII { return String(decoding: slice, as: UTF8.self) }
        if let text = String(validating: slice, as: UTF8.self) { return text }
        let bad = Self.firstInvalidUTF8Offset(in: slice) ?? 0
        throw Failure(kind: .invalidUTF8, offset: mapsOffsets ? startOffset + bad : startOffset)
    }

    static func firstInvalidUTF8Offset(in slice: UnsafeBufferPointer<UInt8>) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = slice.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
