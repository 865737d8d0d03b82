import JSONSchema
import Foundation

/// Markdown fenced code blocks (``` or ~~~) in a reply.
enum FencedBlocks {
    struct Block {
        /// The language tag after the opening fence, lowercased (`json`), or empty.
        let language: String
        /// The bytes between the fences.
        let content: Range<Int>
        /// False when the reply ends before the closing fence.
        let isClosed: Bool
    }

    /// The block to read: the first tagged `json`, else the first untagged (or
    /// otherwise tagged) one whose content starts with `{` or `[`.
    static func preferred(in bytes: [UInt8]) -> Block? {
        let blocks = all(in: bytes)
        if let json = blocks.first(where: { $0.language.hasPrefix("json") }) { return json }
        return blocks.first { block in
            let content = bytes[block.content].drop(while: JSONExtractor.isSpace)
            return content.first == UInt8(ascii: "{") || content.first == UInt8(ascii: "[")
        }
    }

    static func all(in bytes: [UInt8]) -> [Block] {
        var blocks: [Block] = []
        var lineStart = 0
        var open: (fence: UInt8, length: Int, language: String, contentStart: Int)?
        while lineStart <= bytes.count {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let line = bytes[lineStart..<lineEnd]
            let indent = line.prefix(while: { $0 == 0x20 }).count
            let body = line.dropFirst(indent)
            if indent <= 3, let fence = body.first, fence == UInt8(ascii: "`") || fence == UInt8(ascii: "~") {
                let length = body.prefix(while: { $0 == fence }).count
                if length >= 3 {
                    if let current = open {
                        let rest = body.dropFirst(length).allSatisfy(JSONExtractor.isSpace)
                        if fence == current.fence, length >= current.length, rest {
                            blocks.append(Block(language: current.language, content: current.contentStart..<lineStart, isClosed: true))
                            open = nil
                        }
                    } else {
                        let info = String(decoding: body.dropFirst(length), as: UTF8.self)
                            .trimmingCharacters(in: .whitespaces).lowercased()
                        let language = String(info.prefix(while: { !$0.isWhitespace && $0 != "{" }))
                        open = (fence, length, language, min(lineEnd + 1, bytes.count))
                    }
                }
            }
            lineStart = lineEnd + 1
        }
        if let current = open {
            blocks.append(Block(language: current.language, content: current.contentStart..<bytes.count, isClosed: false))
        }
        return blocks
    }
}
