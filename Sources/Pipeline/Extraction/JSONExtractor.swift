import JSONSchema
/// Finds the JSON value in a model's reply: a fenced ```json block when there
/// is one, else the whole reply when it is JSON, else the first balanced
/// `{...}` or `[...]` in the prose that parses.
///
/// Parsing is lenient (`JSONParseOptions.lenient`): raw newlines inside
/// strings are accepted and a repeated key keeps its last value. Failures say
/// where, as line and column of the reply, and a reply cut off in the middle of
/// the JSON is reported as truncated.
///
/// ```swift
/// switch JSONExtractor.extract(from: reply) {
/// case .success(let extraction): use(extraction.value)
/// case .failure(let error): print(error)   // "line 7, column 1 of the reply: the JSON is truncated: ..."
/// }
/// ```
public enum JSONExtractor {
    /// The JSON value in `reply`, or why there is none.
    public static func extract(from reply: String) -> Result<Extraction, ExtractionError> {
        let bytes = Array(reply.utf8)
        let map = SourceMap(bytes)
        if let block = FencedBlocks.preferred(in: bytes) {
            return parse(bytes, block.content, origin: .fencedBlock, map: map)
        }
        let trimmed = trimmedRange(bytes)
        if let first = trimmed.first, bytes[first] == UInt8(ascii: "{") || bytes[first] == UInt8(ascii: "[") {
            // The reply is a JSON attempt as a whole: its error is the one to report.
            return parse(bytes, trimmed, origin: .wholeReply, map: map)
        }
        return embedded(bytes, map: map)
    }

    /// The first balanced top-level `{...}` or `[...]` in prose that parses; an
    /// array of plain values (such as a footnote "[1]") gives way to a later object.
    private static func embedded(_ bytes: [UInt8], map: SourceMap) -> Result<Extraction, ExtractionError> {
        var firstInvalid: ExtractionError?
        var fallbackArray: Extraction?
        var start = 0
        while start < bytes.count {
            guard bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") else {
                start += 1
                continue
            }
            guard let end = BalancedScanner.end(of: bytes, from: start) else {
                // It runs to the end of the reply: the JSON was cut off.
                if let fallbackArray { return .success(fallbackArray) }
                return parse(bytes, start..<bytes.count, origin: .embedded, map: map)
            }
            switch parse(bytes, start..<end, origin: .embedded, map: map) {
            case .success(let extraction):
                guard case .array(let items) = extraction.value, items.allSatisfy(\.isScalar) else {
                    return .success(extraction)
                }
                if fallbackArray == nil { fallbackArray = extraction }
            case .failure(let error):
                if firstInvalid == nil { firstInvalid = error }
            }
            start = end
        }
        if let fallbackArray { return .success(fallbackArray) }
        return .failure(firstInvalid ?? ExtractionError(kind: .noJSON, location: nil))
    }

    private static func parse(
        _ bytes: [UInt8], _ range: Range<Int>, origin: Extraction.Origin, map: SourceMap
    ) -> Result<Extraction, ExtractionError> {
        let slice = bytes[range]
        do {
            let value = try JSONParser.parse(slice, options: .lenient)
            let text = String(decoding: slice, as: UTF8.self)
            return .success(Extraction(value: value, text: text, origin: origin, location: map.location(ofOffset: range.lowerBound)))
        } catch let error as JSONParseError {
            let location = map.location(ofOffset: range.lowerBound + error.location.offset)
            if case .empty = error.kind { return .failure(ExtractionError(kind: .noJSON, location: location)) }
            return .failure(ExtractionError(kind: error.isTruncated ? .truncated(error) : .invalid(error), location: location))
        } catch {
            return .failure(ExtractionError(kind: .noJSON, location: nil))
        }
    }

    private static func trimmedRange(_ bytes: [UInt8]) -> Range<Int> {
        var lower = 0, upper = bytes.count
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}

extension JSONValue {
    var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }
}
