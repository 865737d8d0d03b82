/// How strict the parser is.
public struct JSONParseOptions: Sendable {
    public enum DuplicateKeyPolicy: Sendable {
        /// A key that appears twice in one object is an error (fixtures, schemas).
        case reject
        /// The last occurrence wins (what most JSON libraries do).
        case keepLast
    }

    /// Containers nested deeper than this are rejected instead of exhausting the stack.
    public var maxDepth: Int
    public var duplicateKeys: DuplicateKeyPolicy
    /// Accept raw newlines and tabs inside strings, as some constrained-decoding
    /// grammars emit them. Standard JSON requires them escaped.
    public var allowsControlCharactersInStrings: Bool

    public init(
        maxDepth: Int = 512,
        duplicateKeys: DuplicateKeyPolicy = .reject,
        allowsControlCharactersInStrings: Bool = false
    ) {
        self.maxDepth = maxDepth
        self.duplicateKeys = duplicateKeys
        self.allowsControlCharactersInStrings = allowsControlCharactersInStrings
    }

    /// RFC 8259 JSON, duplicate keys rejected.
    public static let strict = JSONParseOptions()
    /// For model output: raw control characters allowed, last duplicate wins.
    public static let lenient = JSONParseOptions(duplicateKeys: .keepLast, allowsControlCharactersInStrings: true)
}

/// A parsed document that remembers where each value started in the source.
public struct ParsedDocument: Sendable {
    public let value: JSONValue
    public let sourceMap: SourceMap
    private let offsets: [JSONPointer: Int]

    init(value: JSONValue, sourceMap: SourceMap, offsets: [JSONPointer: Int]) {
        self.value = value
        self.sourceMap = sourceMap
        self.offsets = offsets
    }

    /// Where the value at `pointer` starts; for a pointer that designates no value,
    /// the location of its nearest existing parent.
    public func location(of pointer: JSONPointer) -> SourceLocation? {
        var current: JSONPointer? = pointer
        while let candidate = current {
            if let offset = offsets[candidate] { return sourceMap.location(ofOffset: offset) }
            current = candidate.parent
        }
        return nil
    }

    /// Where the key of the object member at `pointer` starts (falls back to its value).
    public func keyLocation(of pointer: JSONPointer) -> SourceLocation? {
        if let offset = offsets[JSONPointer(tokens: pointer.tokens + ["\u{0}key"])] {
            return sourceMap.location(ofOffset: offset)
        }
        return location(of: pointer)
    }
}

/// A strict, fast RFC 8259 parser over UTF-8 bytes with precise errors.
public enum JSONParser {
    public static func parse(_ text: String, options: JSONParseOptions = .strict) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { try parse(bytes: $0, options: options) }
    }

    public static func parse<Bytes: Collection>(
        _ bytes: Bytes, options: JSONParseOptions = .strict
    ) throws -> JSONValue where Bytes.Element == UInt8 {
        if let result = try bytes.withContiguousStorageIfAvailable({ try parse(bytes: $0, options: options) }) {
            return result
        }
        return try Array(bytes).withUnsafeBufferPointer { try parse(bytes: $0, options: options) }
    }

    /// Parses and records the source offset of every value, for error messages
    /// that point at a line and column.
    public static func parseDocument<Bytes: Collection>(
        _ bytes: Bytes, options: JSONParseOptions = .strict
    ) throws -> ParsedDocument where Bytes.Element == UInt8 {
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer, options: options, recordsOffsets: true)
            do {
                let value = try scanner.parseDocument()
                return ParsedDocument(value: value, sourceMap: SourceMap(array), offsets: scanner.offsets)
            } catch let failure as Scanner.Failure {
                throw failure.error(in: buffer)
            }
        }
    }

    static func parse(bytes: UnsafeBufferPointer<UInt8>, options: JSONParseOptions) throws -> JSONValue {
        var scanner = Scanner(bytes: bytes, options: options, recordsOffsets: false)
        do {
            return try scanner.parseDocument()
        } catch let failure as Scanner.Failure {
            throw failure.error(in: bytes)
        }
    }
}

extension JSONParser {
    /// The byte offset of the first byte that is not valid UTF-8, or nil when all of it is.
    public static func firstInvalidUTF8Offset<Bytes: Collection>(in bytes: Bytes) -> Int? where Bytes.Element == UInt8 {
        Array(bytes).withUnsafeBufferPointer { Scanner.firstInvalidUTF8Offset(in: $0) }
    }
}
