import Foundation

extension JSONParser {
    /// The parser's state over one buffer. Errors carry a byte offset and are turned
    /// into line and column only when thrown out of the parser; the path is built
    /// while the error unwinds, so the success path pays nothing for it.
    struct Scanner {
        struct Failure: Error {
            var kind: JSONParseError.Kind
            var offset: Int
            var path: [String] = []

            func error(in bytes: UnsafeBufferPointer<UInt8>) -> JSONParseError {
                JSONParseError(
                    kind: kind,
                    location: SourceMap(bytes).location(ofOffset: offset),
                    path: JSONPointer(tokens: path.reversed())
                )
            }
        }

        let bytes: UnsafeBufferPointer<UInt8>
        let options: JSONParseOptions
        let recordsOffsets: Bool
        var position = 0
        var depth = 0
        var offsets: [JSONPointer: Int] = [:]
        private var currentPath: [String] = []

        init(bytes: UnsafeBufferPointer<UInt8>, options: JSONParseOptions, recordsOffsets: Bool) {
            self.bytes = bytes
            self.options = options
            self.recordsOffsets = recordsOffsets
        }

        mutating func parseDocument() throws -> JSONValue {
            // A UTF-8 byte order mark is tolerated.
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
            skipWhitespace()
            guard position < bytes.count else { throw Failure(kind: .empty, offset: position) }
            let value = try parseValue()
            skipWhitespace()
            if position < bytes.count {
                throw Failure(kind: .trailingContent(found: describeByte(at: position)), offset: position)
            }
            return value
        }

        // MARK: Values

        mutating func parseValue() throws -> JSONValue {
            if recordsOffsets { offsets[JSONPointer(tokens: currentPath)] = position }
            guard position < bytes.count else { throw truncated(expecting: "a value") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try parseObject()
            case UInt8(ascii: "["): return try parseArray()
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
            case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
            case UInt8(ascii: "n"): try expectLiteral("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
            case UInt8(ascii: "N"), UInt8(ascii: "I"):
                throw Failure(kind: .nonFiniteNumber(wordAt(position)), offset: position)
            default:
                throw unexpected(expecting: "a value (object, array, string, number, true, false or null)")
            }
        }

        private mutating func parseObject() throws -> JSONValue {
            try enterContainer()
            position += 1
            var members: [JSONObject.Member] = []
            // Positions by key, built only once an object is too large for linear duplicate checks.
            var positions: [String: Int]?
            skipWhitespace()
            if peek(UInt8(ascii: "}")) {
                position += 1
                depth -= 1
                return .object(JSONObject())
            }
            members.reserveCapacity(8)
            while true {
                skipWhitespace()
                guard position < bytes.count else { throw truncated(expecting: "a member name or '}'") }
                guard bytes[position] == UInt8(ascii: "\"") else {
                    throw unexpected(expecting: "a member name in double quotes")
                }
                let keyOffset = position
                let key = try parseString()
                let existing = Self.position(of: key, in: members, positions: &positions)
                if existing != nil, options.duplicateKeys == .reject {
                    throw Failure(kind: .duplicateKey(key), offset: keyOffset)
                }
                skipWhitespace()
                guard position < bytes.count else { throw truncated(expecting: "':' after the member name") }
                guard bytes[position] == UInt8(ascii: ":") else {
                    throw unexpected(expecting: "':' after the member name")
                }
                position += 1
                skipWhitespace()
                if recordsOffsets {
                    currentPath.append(key)
                    offsets[JSONPointer(tokens: currentPath + ["\u{0}key"])] = keyOffset
                }
                let value: JSONValue
                do {
                    value = try parseValue()
                } catch var failure as Failure {
                    failure.path.append(key)
                    throw failure
                }
                if recordsOffsets { currentPath.removeLast() }
                if let existing {
                    // The last value wins, in the first occurrence's position.
                    members[existing].value = value
                } else {
                    positions?[key] = members.count
                    members.append(JSONObject.Member(key: key, value: value))
                }
                skipWhitespace()
                guard position < bytes.count else { throw truncated(expecting: "',' or '}'") }
                switch bytes[position] {
                case UInt8(ascii: ","):
                    position += 1
                case UInt8(ascii: "}"):
                    position += 1
                    depth -= 1
                    return .object(JSONObject(uniqueMembers: members))
                default:
                    throw unexpected(expecting: "',' or '}' after an object member")
                }
            }
        }

        /// Where `key` already is among `members`: a linear scan for small
        /// objects, a dictionary (built on first need) for large ones.
        private static func position(
            of key: String, in members: [JSONObject.Member], positions: inout [String: Int]?
        ) -> Int? {
            if positions == nil {
                if members.count <= 12 {
                    let length = key.utf8.count
                    for index in members.indices where members[index].key.utf8.count == length && members[index].key == key {
                        return index
                    }
                    return nil
                }
                var built = [String: Int](minimumCapacity: members.count * 2)
                for (index, member) in members.enumerated() where built[member.key] == nil { built[member.key] = index }
                positions = built
            }
            return positions?[key]
        }

        private mutating func parseArray() throws -> JSONValue {
            try enterContainer()
            position += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if peek(UInt8(ascii: "]")) {
                position += 1
                depth -= 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                let index = elements.count
                if recordsOffsets { currentPath.append(String(index)) }
                do {
                    elements.append(try parseValue())
                } catch var failure as Failure {
                    failure.path.append(String(index))
                    throw failure
                }
                if recordsOffsets { currentPath.removeLast() }
                skipWhitespace()
                guard position < bytes.count else { throw truncated(expecting: "',' or ']'") }
                switch bytes[position] {
                case UInt8(ascii: ","):
                    position += 1
                case UInt8(ascii: "]"):
                    position += 1
                    depth -= 1
                    return .array(elements)
                default:
                    throw unexpected(expecting: "',' or ']' after an array element")
                }
            }
        }

        private mutating func enterContainer() throws {
            depth += 1
            if depth > options.maxDepth {
                throw Failure(kind: .tooDeep(limit: options.maxDepth), offset: position)
            }
        }

        // MARK: Strings

        private mutating func parseString() throws -> String {
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

        private mutating func parseEscapedString(from start: Int) throws -> String {
            var buffer = Array(bytes[start..<position])
            while position < bytes.count {
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
                    if byte < 0x20 && !options.allowsControlCharactersInStrings {
                        throw Failure(kind: .controlCharacterInString(byte), offset: position)
                    }
                    buffer.append(byte)
                    position += 1
                }
            }
            throw truncated(expecting: "the closing '\"' of a string")
        }

        private mutating func appendEscape(to buffer: inout [UInt8]) throws {
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

        private mutating func readHex4(escapeStart: Int) throws -> UInt32 {
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

        private func makeString(
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

        // MARK: Numbers and literals

        private mutating func parseNumber() throws -> Double {
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

        private mutating func expectLiteral(_ literal: StaticString) throws {
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

        // MARK: Helpers

        private mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        private func peek(_ byte: UInt8) -> Bool {
            position < bytes.count && bytes[position] == byte
        }

        private func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        private func truncated(expecting expected: String) -> Failure {
            Failure(kind: .truncated(expected: expected), offset: bytes.count)
        }

        private func unexpected(expecting expected: String) -> Failure {
            guard position < bytes.count else { return truncated(expecting: expected) }
            if bytes[position] >= 0x80,
               Self.firstInvalidUTF8Offset(in: UnsafeBufferPointer(rebasing: bytes[position..<min(bytes.count, position + 4)])) == 0
            {
                return Failure(kind: .invalidUTF8, offset: position)
            }
            return Failure(kind: .unexpectedCharacter(found: describeByte(at: position), expected: expected), offset: position)
        }

        private func wordAt(_ start: Int) -> String {
            var end = start
            while end < bytes.count, end - start < 24,
                  bytes[end] == UInt8(ascii: "-") || (bytes[end] < 0x80 && Character(Unicode.Scalar(bytes[end])).isLetter)
            {
                end += 1
            }
            return String(decoding: bytes[start..<max(end, start + 1)], as: UTF8.self)
        }

        private func numberText(from start: Int) -> String {
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
}
