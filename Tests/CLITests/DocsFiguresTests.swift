import Foundation
import Intake
import JSONSchema
import Testing

/// Every measured figure the docs state comes from one place, `docs/figures.yaml`:
/// wherever a page states one, it says what the source says.
struct DocsFiguresTests {
    struct Figure {
        var id: String
        var text: String
        var pattern: NSRegularExpression
    }

    static let root = CommandRunner.repositoryRoot

    static func figures() throws -> [Figure] {
        let document = try YAMLDocument(text: String(contentsOf: root.appendingPathComponent("docs/figures.yaml"), encoding: .utf8))
        return try (document.value["figures"]?.arrayValue ?? []).map { entry in
            let id = try #require(entry["id"]?.stringValue)
            let text = try #require(entry["text"]?.stringValue, "\(id) has a text")
            #expect(entry["measured"]?.stringValue?.isEmpty == false, "\(id) says when and how it was measured")
            return Figure(id: id, text: text, pattern: try NSRegularExpression(pattern: try #require(entry["pattern"]?.stringValue)))
        }
    }

    /// The pages that state figures, relative to the repository.
    static func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/\($0)" }
        return ["README.md", "scripts/README.md", "fixtures/README.md", "golden/README.md", "scripts/local-model"] + docs.sorted()
    }

    /// `(page:line, what it says)` for each place `figure` is stated in `text`, the page `page`.
    static func statements(of figure: Figure, in text: String, page: String) -> [(place: String, said: String)] {
        let range = NSRange(text.startIndex..., in: text)
        return figure.pattern.matches(in: text, range: range).compactMap { match in
            let group = (1..<match.numberOfRanges).lazy.compactMap { Range(match.range(at: $0), in: text) }.first
            guard let group else { return nil }
            let line = text[..<group.lowerBound].filter { $0 == "\n" }.count + 1
            return ("\(page):\(line)", String(text[group]).replacingOccurrences(of: "\n", with: " "))
        }
    }

    @Test func everyPageStatesEachFigureAsTheSourceSaysIt() throws {
        let figures = try Self.figures()
        #expect(Set(figures.map(\.id)).count == figures.count, "ids are unique")
        let pages = try Self.pages().map { ($0, try String(contentsOf: Self.root.appendingPathComponent($0), encoding: .utf8)) }
        for figure in figures {
            let statements = pages.flatMap { Self.statements(of: figure, in: $0.1, page: $0.0) }
            #expect(!statements.isEmpty, "no page states \(figure.id); cite it, or take it out of docs/figures.yaml")
            for statement in statements where statement.said != figure.text {
                Issue.record("\(statement.place) says \(figure.id) is \"\(statement.said)\"; docs/figures.yaml says \"\(figure.text)\"")
            }
        }
    }

    /// The pattern finds a figure stated across a line break, and names where.
    @Test func aStatementIsFoundWhereverThePageBreaksItsLine() throws {
        let figure = try #require(try Self.figures().first { $0.id == "qwen-generation" })
        let page = "Speed: generation with\nthe grammar 12-16 tokens/s on llama-server, and 9.3 tok/s with the grammar beside a build.\n"
        let found = Self.statements(of: figure, in: page, page: "page.md")
        #expect(found.map(\.place) == ["page.md:2", "page.md:2"])
        #expect(found.map(\.said) == ["12-16 tokens/s", "9.3 tok/s"])
    }
}
