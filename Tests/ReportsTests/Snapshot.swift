import Foundation
import Testing

/// Compares rendered text with the committed file `Snapshots/<name>` beside this
/// file, and records an issue with a line diff when they differ or the file is missing.
///
/// To accept a change on purpose, rerun with `UPDATE_SNAPSHOTS=1`: the file is
/// rewritten, and the test still fails saying so, so an update never passes
/// unnoticed. Review the change with `git diff` and commit it.
func assertSnapshot(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    Snapshot(name: name).assertMatches(text, updating: Snapshot.updateRequested, sourceLocation: sourceLocation)
}

/// One committed expected file, such as `Snapshots/failing/report.md`.
struct Snapshot {
    /// `Tests/ReportsTests/Snapshots`, found from this source file as the other tests find the repository.
    static let committedFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots", isDirectory: true)

    /// The variable that asks for the expected files to be rewritten.
    static let updateVariable = "UPDATE_SNAPSHOTS"

    /// `UPDATE_SNAPSHOTS=1` is set: rewrite the expected files that differ.
    static var updateRequested: Bool { ProcessInfo.processInfo.environment[updateVariable] == "1" }

    /// The path below `folder`, which may hold a subfolder: `failing/report.md`.
    var name: String
    var folder: URL = Snapshot.committedFolder

    var file: URL { folder.appendingPathComponent(name) }

    /// The file as a message names it: relative to the repository for committed snapshots.
    var label: String {
        folder == Self.committedFolder ? "Tests/ReportsTests/Snapshots/\(name)" : file.path
    }

    /// Records the problem `check` finds, if any, as an issue at `sourceLocation`.
    /// `record` is how the problem is reported: a test's issue, unless a test of this helper listens itself.
    func assertMatches(
        _ text: String, updating: Bool, sourceLocation: SourceLocation = #_sourceLocation,
        record: (String, SourceLocation) -> Void = { Issue.record(Comment(rawValue: $0), sourceLocation: $1) }
    ) {
        if let problem = check(text, updating: updating) {
            record(problem, sourceLocation)
        }
    }

    /// The problem to record, or nil when the file holds exactly the bytes of `text`.
    /// When `updating`, a missing or different file is first rewritten with `text`.
    func check(_ text: String, updating: Bool) -> String? {
        let bytes = FileManager.default.fileExists(atPath: file.path) ? try? Data(contentsOf: file) : nil
        if bytes == Data(text.utf8) { return nil }
        let expected = bytes.map { String(decoding: $0, as: UTF8.self) }
        if updating {
            do {
                try write(text)
            } catch {
                return "Could not write \(label): \(error)"
            }
            guard let expected else {
                return "Recorded the new snapshot \(label). Review it, then rerun without \(Self.updateVariable) to check it."
            }
            return "Updated \(label) (- old, + new):\n\(Self.describe(expected: expected, actual: text))\n"
                + "Review the change with `git diff`, then rerun without \(Self.updateVariable) to check it."
        }
        guard let expected else {
            return "No snapshot \(label) to compare with. If the output is what you want, rerun with \(Self.updateVariable)=1 to record it, then review and commit the file."
        }
        return "The output differs from \(label) (- expected, + actual):\n\(Self.describe(expected: expected, actual: text))\n"
            + "If the change is intended, rerun with \(Self.updateVariable)=1 to rewrite the file, then review `git diff` and commit it."
    }

    /// Where the texts first differ, then the diff.
    static func describe(expected: String, actual: String) -> String {
        let diff = SnapshotDiff(expected: expected, actual: actual)
        guard let first = diff.firstDifference else {
            return diff.finalLineBreakDiffers
                ? "(every line is the same: one text ends with a line break and the other does not)"
                : "(no line differs as text: compare the files' bytes)"
        }
        return "first difference at line \(first.line), column \(first.column)\n" + diff.unified
    }

    /// Writes atomically, creating the folder when needed.
    private func write(_ text: String) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file, options: .atomic)
    }
}
