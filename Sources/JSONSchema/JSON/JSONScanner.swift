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

        mutating func parseObject() throws -> JSONValue {
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
        static func position(
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

        mutating func parseArray() throws -> JSONValue {
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

        mutating func enterContainer() throws {
            depth += 1
            if depth > options.maxDepth {
                throw Failure(kind: .tooDeep(limit: options.maxDepth), offset: position)
            }
        }
    }
}
