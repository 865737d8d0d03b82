import JSONSchema
import Pipeline
import Testing

/// Finding the JSON in a model's reply.
@Suite struct JSONExtractorTests {
    @Test func prefersAFencedJSONBlock() throws {
        let reply = """
            Here is a sketch: `{"draft": true}`

            ```python
            print("not this")
            ```

            ```json
            {"options": [{"id": "a", "summary": "Run a 5K"}]}
            ```
            Let me know!
            """
        let extraction = try JSONExtractor.extract(from: reply).get()
        #expect(extraction.origin == .fencedBlock)
        #expect(extraction.value["options"]?[0]?["id"] == "a")
        #expect(extraction.location.line == 8)
    }

    @Test func readsAnUntaggedFenceThatHoldsJSON() throws {
        let extraction = try JSONExtractor.extract(from: "```\n[1, 2]\n```").get()
        #expect(extraction.value == [1, 2])
    }

    @Test func takesTheWholeReplyWhenItIsJSON() throws {
        let extraction = try JSONExtractor.extract(from: "  \n{\"a\": 1}\n").get()
        #expect(extraction.origin == .wholeReply)
        #expect(extraction.value == ["a": 1])
    }

    @Test func findsTheFirstBalancedObjectInProse() throws {
        let reply = #"Sure [1]! The plan {is} below: {"title": "Base {building}", "weeks": [1, 2]} — enjoy."#
        let extraction = try JSONExtractor.extract(from: reply).get()
        #expect(extraction.origin == .embedded)
        #expect(extraction.value["title"] == "Base {building}")
        #expect(extraction.text == #"{"title": "Base {building}", "weeks": [1, 2]}"#)
    }

    @Test func acceptsRawNewlinesInsideStrings() throws {
        let reply = "```json\n{\"program_markdown\": \"# Week 1\n- Squats\"}\n```"
        let extraction = try JSONExtractor.extract(from: reply).get()
        #expect(extraction.value["program_markdown"] == "# Week 1\n- Squats")
    }

    @Test func reportsTruncatedJSONAsTruncatedWithItsPlace() throws {
        let reply = "```json\n{\"options\": [\n  {\"id\": \"a\", \"summary\": \"Run"
        let error = try #require(throws: ExtractionError.self) { try JSONExtractor.extract(from: reply).get() }
        #expect(error.isTruncated)
        #expect(error.location?.line == 3)
        #expect(error.description.contains("truncated"))
        #expect(error.description.hasPrefix("line 3, column "))
    }

    @Test func reportsTruncationInProseToo() throws {
        let error = try #require(throws: ExtractionError.self) {
            try JSONExtractor.extract(from: "Here you go: {\"title\": \"Plan\", \"weeks\": [1, 2").get()
        }
        #expect(error.isTruncated)
    }

    @Test func saysWhereAndWhatWasExpectedForMalformedJSON() throws {
        let reply = "Intro line\n```json\n{\"a\": 1,\n \"b\" 2}\n```"
        let error = try #require(throws: ExtractionError.self) { try JSONExtractor.extract(from: reply).get() }
        #expect(!error.isTruncated)
        #expect(error.location?.line == 4)
        #expect(error.location?.column == 6)
        #expect(error.description.contains("expected ':' after the member name"), "\(error)")
    }

    @Test func saysSoWhenThereIsNoJSON() throws {
        let error = try #require(throws: ExtractionError.self) {
            try JSONExtractor.extract(from: "I'm sorry, I can't help with that.").get()
        }
        #expect(error.kind == .noJSON)
        #expect(error.description.contains("no JSON object or array"))
    }

    @Test func anEmptyFenceIsNoJSON() throws {
        let error = try #require(throws: ExtractionError.self) { try JSONExtractor.extract(from: "```json\n```").get() }
        #expect(error.kind == .noJSON)
    }
}
