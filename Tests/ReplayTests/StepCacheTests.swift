import Foundation
import Intake
import JSONSchema
import Providers
@testable import Storage
import Testing

@testable import Pipeline
@testable import Replay

/// A replayed step is worked out once and read back while nothing it follows from
/// changes: the build, its prompt files, the shared prompt files, the fixture, the
/// steps before it and its recording. Checked on a copy of the repository's prompts,
/// one fixture and its real recordings.
@Suite("Reusing replayed steps")
struct StepCacheTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixture = "busy-parent"
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("step-cache-\(UUID().uuidString)", isDirectory: true)
    var layout: ProjectLayout { ProjectLayout(root: root) }

    init() throws {
        let files = FileManager.default
        try files.createDirectory(at: root.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
        try files.copyItem(at: Self.repository.appendingPathComponent("prompts"), to: root.appendingPathComponent("prompts"))
        for suffix in [".json", ".yaml"] {
            try files.copyItem(
                at: Self.repository.appendingPathComponent("fixtures/\(Self.fixture)\(suffix)"),
                to: root.appendingPathComponent("fixtures/\(Self.fixture)\(suffix)"))
        }
        let recordings = root.appendingPathComponent("golden/\(Self.fixture)")
        try files.createDirectory(at: recordings, withIntermediateDirectories: true)
        for name in try files.contentsOfDirectory(atPath: Self.repository.appendingPathComponent("golden/\(Self.fixture)").path)
        where name.hasSuffix(CassetteStore.fileSuffix) {
            try files.copyItem(at: Self.repository.appendingPathComponent("golden/\(Self.fixture)/\(name)"), to: recordings.appendingPathComponent(name))
        }
    }

    /// One replay of the fixture with the step cache: its steps and the calls that reached the recordings.
    func replay() async throws -> (steps: [StepResult], calls: [String]) {
        let prompts = try PromptLibrary(layout: layout)
        let provider = CallCounting(ReplayProvider(store: CassetteStore(folder: layout.golden)))
        let pipeline = Pipeline(
            runner: StepRunner(provider: provider, prompts: prompts), offloadsWork: false,
            cache: StepCache(folder: layout.stepCache, layout: layout, prompts: prompts))
        let fixture = try FixtureCorpus(layout: layout).load(Self.fixture)
        return (await pipeline.run(fixture).steps, provider.steps)
    }

    func append(_ text: String, to file: String) throws {
        let handle = try FileHandle(forWritingTo: root.appendingPathComponent(file))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// An entry of a fixture's file as `Decodable` reads it.
    struct DecodedEntry: Decodable {
        var key: String
        var result: StepResult
        var user: String?
    }

    @Test func aSecondReplayReadsEveryStepBackAndConcludesTheSame() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try await replay()
        let modelSteps = first.steps.filter { $0.step != nil }.map(\.id.description)
        #expect(modelSteps == ["goal-options", "goal-options-edit-1", "program-draft", "program-edit"])
        #expect(Set(first.calls) == Set(modelSteps), "the first replay works every step out")
        #expect(first.steps.allSatisfy { $0.status == .valid })
        #expect(first.steps.filter { $0.step != nil }.allSatisfy { !$0.checks.isEmpty }, "each model step was checked")
        #expect(FileManager.default.fileExists(atPath: layout.stepCache.appendingPathComponent("base/\(Self.fixture).json").path))

        let second = try await replay()
        #expect(second.calls == [], "nothing changed, so nothing is replayed again")
        #expect(second.steps == first.steps, "read back: the same outputs, checks, attempts and interventions")

        // The file is read member by member; the decoder reads the same entries.
        let file = layout.stepCache.appendingPathComponent("base/\(Self.fixture).json")
        let byHand = FixtureCache.read(file)
        let parsed = try JSONParser.parse(Data(contentsOf: file))
        let decoded = try #require(parsed["steps"]?.objectValue).members.map { member in
            (member.key, try JSONValueDecoder().decode(DecodedEntry.self, from: member.value))
        }
        #expect(byHand.count == modelSteps.count)
        #expect(FixtureCache.Entry(json: .object(JSONObject([]))) == nil, "an entry without its members is left to the decoder")
        for (id, entry) in decoded {
            let read = try #require(byHand[id])
            #expect(read.key == entry.key && read.result == entry.result && read.user == entry.user, "\(id) is read as the decoder reads it")
        }
    }

    @Test func aChangedStepPromptReworksThatStepAloneAndSharedFilesReworkEveryStep() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try await replay()

        // A comment changes the file, not the request: the recording still answers.
        try append("\n# reviewed\n", to: "prompts/program-edit/prompt.yaml")
        let edited = try await replay()
        #expect(edited.calls == ["program-edit"])
        #expect(edited.steps == first.steps)

        try append("\n# reviewed\n", to: "prompts/coaching/advice.yaml")
        let shared = try await replay()
        #expect(Set(shared.calls) == ["goal-options", "goal-options-edit-1", "program-draft", "program-edit"])
        #expect(shared.steps == first.steps)
        #expect(try await replay().calls == [])
    }

    @Test func aChangedRecordingReworksItsStepAndEveryLaterOne() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try await replay()
        try append("\n", to: "golden/\(Self.fixture)/program-draft.cassette.json")
        let rerecorded = try await replay()
        #expect(rerecorded.calls == ["program-draft", "program-edit"], "the edit's input is the draft's output")
        #expect(rerecorded.steps == first.steps)
    }

    @Test func aChangedFixtureReworksEveryStep() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try await replay()
        try append("\n# reviewed\n", to: "fixtures/\(Self.fixture).yaml")
        #expect(Set(try await replay().calls) == ["goal-options", "goal-options-edit-1", "program-draft", "program-edit"])
    }

    /// A stale recording is an error, which is never kept: once recorded again the step
    /// runs, and a step after it is worked out rather than read back.
    @Test func aStepThatFailedIsNeverReadBack() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try await replay()
        try append("\nBe brief.\n", to: "prompts/program-draft/system.md")
        let stale = try await replay()
        #expect(stale.steps.first { $0.id.description == "program-draft" }?.failure?.kind == .provider(.staleRecording))
        let again = try await replay()
        #expect(again.calls == ["program-draft"], "the error is met again, not read back")
    }

    @Test func theBuildIsNamedByItsLinkerBuildIDAndItsLibraries() throws {
        #if os(Linux)
        #expect(CodeIdentity.program.hasPrefix("build-id "), "\(CodeIdentity.program)")
        #expect(CodeIdentity.program.count > "build-id ".count + 16)
        #expect(CodeIdentity.sharedLibraries.contains { $0.contains("libswiftCore.so") }, "the Swift runtime it runs on counts too")
        #endif
        // A note list: first another note (type 1, name "GNU"), then the build id (type 3).
        var notes: [UInt8] = []
        func note(type: UInt32, name: String, description: [UInt8]) {
            let nameBytes = Array(name.utf8) + [0]
            for value in [UInt32(nameBytes.count), UInt32(description.count), type] { withUnsafeBytes(of: value.littleEndian) { notes += $0 } }
            notes += nameBytes + Array(repeating: 0, count: (4 - nameBytes.count % 4) % 4)
            notes += description + Array(repeating: 0, count: (4 - description.count % 4) % 4)
        }
        note(type: 1, name: "GNU", description: [9, 9, 9, 9, 9, 9])
        note(type: 3, name: "GNU", description: [0xde, 0xad, 0xbe, 0xef, 0x01])
        #expect(notes.withUnsafeBytes(CodeIdentity.gnuBuildID) == [0xde, 0xad, 0xbe, 0xef, 0x01])
        #expect(Array(notes.dropLast(8)).withUnsafeBytes(CodeIdentity.gnuBuildID) == nil, "a cut note is not read")
    }
}

/// Passes calls to a replay, noting the step of each first try.
private final class CallCounting: ModelProvider, @unchecked Sendable {
    let base: ReplayProvider
    private let lock = NSLock()
    private var called: [String] = []
    var kind: String { base.kind }
    var model: String { base.model }

    init(_ base: ReplayProvider) {
        self.base = base
    }

    var steps: [String] { lock.withLock { called } }

    func complete(_ request: CompletionRequest) async throws -> CompletionResponse {
        if let context = request.context, context.repair == 0 { lock.withLock { called.append(context.step) } }
        return try await base.complete(request)
    }

    func fixedAnswers(for context: CallContext) -> FixedAnswers? { base.fixedAnswers(for: context) }
    func reused(_ answers: FixedAnswers) { base.reused(answers) }
}

@Suite("A cassette's provider and model")
struct CassetteSourceTests {
    @Test func areReadFromTheEndOfACassetteAsWrittenAndFromAnyOtherLayoutByParsing() throws {
        let cassette = Cassette(
            fixture: "sam", step: "goal-options", provider: "openai-compatible", model: "qwen2.5-1.5b \"q4\"", recordedAt: Date(), interactions: [])
        let written = try CassetteStore.contents(of: cassette)
        #expect(CassetteStore.source(ofCassette: written) == "openai-compatible qwen2.5-1.5b \"q4\"", "an escaped quote is parsed")

        let plain = Cassette(fixture: "sam", step: "goal-options", provider: "anthropic", model: "claude-x", recordedAt: Date(), interactions: [])
        #expect(CassetteStore.source(ofCassette: try CassetteStore.contents(of: plain)) == "anthropic claude-x")
        let compact = Data(#"{"model":"m1","provider":"p1","interactions":[{"note":"\n  \"model\" : \"not this\""}]}"#.utf8)
        #expect(CassetteStore.source(ofCassette: compact) == "p1 m1", "a member inside a string is no member")
        #expect(CassetteStore.source(ofCassette: Data("not json".utf8)) == nil)
    }

    @Test func ofTheRepositorysRecordingsAgreeWithParsingThem() throws {
        let folder = StepCacheTests.repository.appendingPathComponent("golden/\(StepCacheTests.fixture)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(CassetteStore.fileSuffix) }
        #expect(names.count == 4)
        for name in names {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            let json = try JSONParser.parse(data)
            #expect(data.count > 4096, "\(name) is long enough to need the search from the end")
            #expect(CassetteStore.source(ofCassette: data) == "\(json["provider"]?.stringValue ?? "") \(json["model"]?.stringValue ?? "")")
        }
    }
}
