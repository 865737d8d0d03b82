import Foundation
import Intake
import JSONSchema
@testable import Storage
import Testing

/// The golden store on disk and its in-memory twin give the same answers to the
/// same sequence of calls.
@Suite("Golden storage")
struct GoldenStorageTests {
    enum Backing: String, CaseIterable, CustomTestStringConvertible {
        case disk, memory
        var testDescription: String { rawValue }
    }

    /// A golden store with cassettes beside it, as `golden/` holds both.
    struct Stores {
        var golden: any GoldenStorage
        var cassettes: any CassetteStorage
        var folder: URL?

        init(_ backing: Backing) {
            switch backing {
            case .disk:
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
                (golden, cassettes, self.folder) = (GoldenStore(folder: folder), CassetteStore(folder: folder), folder)
            case .memory:
                let cassettes = MemoryCassetteStore()
                (golden, self.cassettes, folder) = (MemoryGoldenStore(recordings: cassettes), cassettes, nil)
            }
        }

        func cleanUp() {
            if let folder { try? FileManager.default.removeItem(at: folder) }
        }
    }

    static let program = GoldenEntry(
        output: [
            "program_json": ["title": "Evening Energy", "days_per_week": 2, "sessions": [["day": 1, "name": "Full body"]]],
            "program_markdown": "# Evening Energy\n\n## Day 1: Full body\n",
        ],
        checks: ["program.days-per-week": true, "program.avoids": false],
        failureMessages: ["program.avoids": "uses \"jump\""])

    static let options = GoldenEntry(output: ["options": [["id": "a", "summary": "One"]]], checks: ["options.count": false])

    static func key(_ text: String) -> StepKey {
        let parts = text.split(separator: "/").map(String.init)
        return StepKey(fixture: parts[0], step: parts[1])
    }

    @Test(arguments: Backing.allCases)
    func theSameCallsGiveTheSameAnswers(backing: Backing) throws {
        let stores = Stores(backing)
        defer { stores.cleanUp() }
        let store = stores.golden

        // Empty.
        #expect(try store.approved(StepKey(fixture: "sam", step: "program-draft")) == nil)
        #expect(try store.pending(StepKey(fixture: "sam", step: "program-draft")) == nil)
        #expect(store.entries(pending: true).isEmpty && store.entries(pending: false).isEmpty)
        #expect(store.orphans(excluding: []).isEmpty)
        #expect(store.fixtureFolders().isEmpty)
        #expect(try !store.accept(StepKey(fixture: "sam", step: "program-draft")))
        #expect(!store.reject(StepKey(fixture: "sam", step: "program-draft")))

        // Pending outputs read back as written, failure messages included.
        try store.writePending(Self.program, for: StepKey(fixture: "sam", step: "program-draft"))
        try store.writePending(Self.options, for: StepKey(fixture: "sam", step: "goal-options"))
        try store.writePending(Self.program, for: StepKey(fixture: "old", step: "program-edit"))
        try store.writePending(Self.options, for: StepKey(fixture: "kept", step: "goal-options"))
        #expect(try store.pending(StepKey(fixture: "sam", step: "program-draft")) == Self.program)
        #expect(try store.approved(StepKey(fixture: "sam", step: "program-draft")) == nil)
        #expect(store.entries(pending: true).map(\.description)
            == ["kept/goal-options", "old/program-edit", "sam/goal-options", "sam/program-draft"])
        #expect(store.entries(pending: false).isEmpty)

        // Accepting makes it golden without its messages; rejecting discards it.
        #expect(try store.accept(StepKey(fixture: "sam", step: "program-draft")))
        #expect(try !store.accept(StepKey(fixture: "sam", step: "program-draft")))
        var approved = Self.program
        approved.failureMessages = [:]
        #expect(try store.approved(StepKey(fixture: "sam", step: "program-draft")) == approved)
        #expect(try store.pending(StepKey(fixture: "sam", step: "program-draft")) == nil)
        #expect(store.reject(StepKey(fixture: "kept", step: "goal-options")))
        #expect(!store.reject(StepKey(fixture: "kept", step: "goal-options")))
        #expect(try store.pending(StepKey(fixture: "kept", step: "goal-options")) == nil)

        // A new approval without markdown drops the old markdown.
        var plain = Self.program
        plain.output = ["program_json": ["title": "Plain"]]
        plain.failureMessages = [:]
        try store.writePending(plain, for: StepKey(fixture: "sam", step: "program-draft"))
        try store.accept(StepKey(fixture: "sam", step: "program-draft"))
        #expect(try store.approved(StepKey(fixture: "sam", step: "program-draft")) == plain)
        #expect(try store.accept(StepKey(fixture: "sam", step: "goal-options")))
        #expect(store.entries(pending: false).map(\.description) == ["sam/goal-options", "sam/program-draft"])
        #expect(store.entries(pending: true).map(\.description) == ["old/program-edit"])

        // Orphans: every file of a step no fixture produces, recordings included.
        let recording = Cassette(
            fixture: "gone", step: "goal-options", provider: "local", model: "m", recordedAt: Date(timeIntervalSince1970: 0), interactions: [])
        try stores.cassettes.write(recording)
        let orphans = store.orphans(excluding: [Self.key("sam/program-draft")])
        #expect(orphans.map(\.description) == ["gone/goal-options", "old/program-edit", "sam/goal-options"])
        #expect(orphans.map(\.files) == [
            ["goal-options.cassette.json"],
            ["program-edit.checks.json.new", "program-edit.json.new", "program-edit.md.new", "program-edit.messages.json.new"],
            ["goal-options.checks.json", "goal-options.json"],
        ])
        // A folder that rejecting emptied stays until pruned, as it does on disk.
        #expect(store.fixtureFolders() == ["gone", "kept", "old", "sam"])

        // Removing an orphan takes its fixture's folder only when that leaves it empty.
        #expect(try store.remove(orphans[0]))
        #expect(stores.cassettes.entries().isEmpty)
        #expect(try store.remove(orphans[1]))
        #expect(try !store.remove(orphans[2]))
        #expect(try store.approved(StepKey(fixture: "sam", step: "goal-options")) == nil)
        #expect(try store.approved(StepKey(fixture: "sam", step: "program-draft")) == plain)
        #expect(store.orphans(excluding: [Self.key("sam/program-draft")]).isEmpty)
        #expect(store.fixtureFolders() == ["kept", "sam"])
        #expect(try !store.remove(orphans[1]), "a folder already gone")
    }

    /// What a run predicts of golden once its pending outputs are accepted is what `accept`
    /// leaves: the same digest of the judged files, and the same entries to judge against.
    @Test func theDigestOnceAcceptedIsTheDigestAfterAccepting() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = GoldenStore(folder: folder)
        let draft = Self.key("sam/program-draft"), options = Self.key("sam/goal-options"), edit = Self.key("sam/program-edit")
        // Approved markdown that the pending output drops; a new output; a step with nothing pending.
        var approvedDraft = Self.program
        approvedDraft.failureMessages = [:]
        try store.writePending(approvedDraft, for: draft)
        try store.accept(draft)
        try store.writePending(Self.options, for: edit)
        try store.accept(edit)
        var plain = Self.program
        plain.output = ["program_json": ["title": "Plain"]]
        try store.writePending(plain, for: draft)
        try store.writePending(Self.options, for: options)
        let keys = [draft, options, edit]

        let predicted = try #require(store.contentDigestOnceAccepted(of: keys))
        let before = try #require(store.contentDigest(of: keys))
        #expect(predicted != before)
        let entries = try keys.map { try store.approvedOnceAccepted($0) }
        for key in keys { try store.accept(key) }
        #expect(store.contentDigest(of: keys) == predicted)
        #expect(store.contentDigestOnceAccepted(of: keys) == predicted, "with nothing pending, accepting changes nothing")
        #expect(try keys.map { try store.approved($0) } == entries)
        #expect(entries[0]?.output == plain.output && entries[0]?.failureMessages == [:], "no markdown, no messages")

        // A pending output without its checks file cannot be told.
        try store.writePending(Self.options, for: options)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("sam/goal-options.checks.json.new"))
        #expect(store.contentDigestOnceAccepted(of: keys) == nil)
        #expect(store.contentDigest(of: keys) != nil)
    }

    struct CutShort: Error {}

    /// A fault between two of an accept's renames (before the checks, the messages or
    /// the markdown move) leaves a journal; the next read finishes the accept, so the
    /// output and its checks are the pending ones, never one from each run.
    @Test(arguments: [1, 2, 3])
    func anAcceptCutShortBetweenRenamesIsFinishedByTheNextRead(faultBefore move: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accept-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = StepKey(fixture: "ana", step: "program-draft")
        var store = GoldenStore(folder: folder)
        let old = GoldenEntry(output: ["program_json": ["title": "Old"], "program_markdown": "# Old\n"], checks: ["program.days-per-week": true])
        let new = GoldenEntry(
            output: ["program_json": ["title": "New"], "program_markdown": "# New\n"], checks: ["program.days-per-week": false],
            failureMessages: ["program.days-per-week": "5 days; the person can train 3"])
        try store.writePending(old, for: key)
        try store.accept(key)
        try store.writePending(new, for: key)

        store.acceptFault = { index in if index == move { throw CutShort() } }
        #expect(throws: CutShort.self) { try store.accept(key) }
        let journal = folder.appendingPathComponent("ana/.program-draft.accepting")
        #expect(FileManager.default.fileExists(atPath: journal.path), "the accept left its journal")

        let reader = GoldenStore(folder: folder)
        let approved = try #require(try reader.approved(key))
        #expect(approved.output == new.output)
        #expect(approved.checks == new.checks, "the output and its checks come from the same run")
        #expect(try reader.pending(key) == nil)
        #expect(!FileManager.default.fileExists(atPath: journal.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("ana").path).sorted()
            == ["program-draft.checks.json", "program-draft.json", "program-draft.md"])
    }

    @Test func anAcceptCutShortIsFinishedByTheNextAccept() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accept-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = StepKey(fixture: "ana", step: "goal-options")
        var store = GoldenStore(folder: folder)
        try store.writePending(GoldenEntry(output: ["options": []], checks: ["options.count": false]), for: key)
        store.acceptFault = { _ in throw CutShort() }
        #expect(throws: CutShort.self) { try store.accept(key) }
        store.acceptFault = nil
        #expect(try store.accept(key) == false, "the accept was finished first, leaving nothing pending")
        #expect(try store.approved(key)?.checks == ["options.count": false])
    }
}
