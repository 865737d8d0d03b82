import Intake
import Testing

/// `FixtureCorpus.load(names:tags:)` on the repository's own fixtures.
@Suite("Fixtures selected by tag")
struct TagSelectionTests {
    let corpus = try! FixtureCorpus(layout: TemporaryProject.repositoryLayout)

    @Test func theDevelopmentSetCoversWhatItPromises() throws {
        let names = try corpus.load(names: [], tags: ["dev"]).map(\.name)
        #expect(names == [
            "busy-parent", "eating-disorder-risk", "hostile-ignore-instructions", "older-beginner-heart-condition", "race-runner",
            "spanish-speaker",
        ])
    }

    @Test func namesComeFirstInTheirOrderThenTheTaggedInNameOrderEachOnce() throws {
        let names = try corpus.load(names: ["spanish-speaker", "knee-injury", "knee-injury"], tags: ["dev"]).map(\.name)
        #expect(names == [
            "spanish-speaker", "knee-injury", "busy-parent", "eating-disorder-risk", "hostile-ignore-instructions",
            "older-beginner-heart-condition", "race-runner",
        ])
    }

    @Test func anyOfTheTagsSelects() throws {
        let names = try corpus.load(names: [], tags: ["knee", "shoulder"]).map(\.name)
        #expect(names == ["knee-injury", "shoulder-injury"])
    }

    @Test func anUnknownTagSuggestsTheNearest() throws {
        #expect {
            try corpus.load(names: [], tags: ["hostle"])
        } throws: { error in
            guard case .unknownTag("hostle", suggestion: "hostile", let known) = error as? FixtureError else { return false }
            return known.contains("dev") && known == known.sorted()
        }
    }

    @Test func anUnknownNameIsStillRefusedFirst() throws {
        #expect(throws: FixtureError.self) { try corpus.load(names: ["busy-parnet"], tags: ["dev"]) }
    }
}
