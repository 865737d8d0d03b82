import Foundation
import Testing
@testable import History
@testable import Reports

/// The history stays bounded: every recorded run prunes it, `history prune` compacts
/// it, and a reference to a pruned run says so.
@Suite("History retention")
struct RetentionTests {
    static func record(_ count: Int, into history: some RunRecords, summaries: Int = 3) throws -> [String] {
        try (0..<count).map { index in
            let id = String(format: "20261101-10%04d-replay", index)
            try history.record(
                RunHistoryTests.report(id: id, at: 1000 + Double(index) * 60, summaries: (0..<summaries).map { "option \($0)" }, checks: ["options.count": true]),
                reportFolder: nil)
            return id
        }
    }

    @Test func eachRecordedRunPrunesTheHistoryToItsRetention() throws {
        let file = RunHistoryTests.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let history = try RunHistory(file: file, retention: Retention(keep: 3))
        let ids = try Self.record(5, into: history)
        #expect(try history.recentRuns(limit: .max).map(\.id) == ids.suffix(3).reversed())
        #expect(try history.prunedRunIDs() == [ids[1], ids[0]])
        #expect(try history.steps(ofRun: ids[0]).isEmpty, "a pruned run's steps go with it")

        let pruned = #expect(throws: HistoryError.self) { try history.run("latest~3") }
        #expect(pruned?.message.contains("`latest~3` was pruned from the history: it keeps the newest 3 runs, and 2 older ones were removed") == true,
                "\(String(describing: pruned))")
        let beyond = #expect(throws: HistoryError.self) { try history.run("latest~5") }
        #expect(beyond?.message.contains("only 3 runs recorded") == true)
        let byID = #expect(throws: HistoryError.self) { try history.run(ids[0]) }
        #expect(byID?.message.contains("run \(ids[0]) was pruned from the history") == true)
        #expect(try history.run("latest~2").id == ids[2])
    }

    @Test func pruningByAgeAndCompactingGivesTheSpaceBack() throws {
        let file = RunHistoryTests.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let history = try RunHistory(file: file, retention: Retention())
        let ids = try Self.record(30, into: history, summaries: 200)
        func size() throws -> Int { try #require(FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) }
        let before = try size()
        // Pruned without compacting, the file keeps its pages for the next runs.
        let first = try history.prune(Retention(olderThan: Date(timeIntervalSince1970: 1000 + 10 * 60)), compacting: false)
        #expect(first.map(\.id) == ids.prefix(10).reversed())
        #expect(try size() == before)
        let removed = try history.prune(Retention(olderThan: Date(timeIntervalSince1970: 1000 + 25 * 60)), compacting: true)
        #expect(removed.map(\.id) == ids[10..<25].reversed())
        #expect(try history.recentRuns(limit: .max).count == 5)
        let after = try size()
        #expect(after < before, "compacted from \(before) to \(after) bytes")
    }

    @Test func theDefaultCapAndTheSettingThatChangesIt() {
        #expect(Retention.automatic(environment: [:]) == Retention(keep: Retention.defaultKeep))
        #expect(Retention.automatic(environment: [Retention.keepVariable: "7"]) == Retention(keep: 7))
        #expect(Retention.automatic(environment: [Retention.keepVariable: "0"]) == Retention(), "0 keeps every run")
        #expect(Retention.automatic(environment: [Retention.keepVariable: "many"]) == Retention(keep: Retention.defaultKeep))
    }

    @Test func theMemoryTwinPrunesAsTheFileDoes() throws {
        let memory = MemoryRunHistory()
        let ids = try Self.record(4, into: memory)
        try memory.prune(Retention(keep: 1), compacting: true)
        #expect(try memory.recentRuns(limit: .max).map(\.id) == [ids[3]])
        #expect(try memory.prunedRunIDs() == [ids[2], ids[1], ids[0]])
    }
}
