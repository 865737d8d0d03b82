/// A position in a text file: 1-based line and column (columns count Unicode
/// scalars, as an editor shows them) plus the 0-based byte offset.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public var description: String { "\(line):\(column)" }
}

/// Turns byte offsets into line and column numbers for one document.
public struct SourceMap: Sendable {
    private let bytes: [UInt8]
    private let lineStarts: [Int]

    public init<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        self.bytes = Array(bytes)
        var starts = [0]
        for (offset, byte) in self.bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(offset + 1)
        }
        lineStarts = starts
    }

    public func location(ofOffset offset: Int) -> SourceLocation {
        let clamped = max(0, min(offset, bytes.count))
        // Last line start that is <= offset.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= clamped { low = mid } else { high = mid - 1 }
        }
        let start = lineStarts[low]
        // Count scalars, not bytes: UTF-8 continuation bytes do not start a column.
        var column = 1
        for byte in bytes[start..<clamped] where byte & 0xC0 != 0x80 { column += 1 }
        return SourceLocation(line: low + 1, column: column, offset: clamped)
    }
}
