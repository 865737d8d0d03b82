import Foundation
import Golden
import Intake
import JSONSchema
import Pipeline
import Reports
import Storage

/// Fixtures read back whole. When nothing a fixture's run follows from has changed
/// (its steps' cache keys, the golden files its steps are judged against, the run's
/// own choices), its results, verdicts and `results.json` text are those the run
/// that kept them reached: none of its steps is read back one by one, judged or
/// encoded again.
///
/// Only a large run reads fixtures back or keeps them (more steps than `index.html`
/// shows in full), and only a fixture whose every step passes the gate is kept: a
/// fixture read back holds no output, prompt or intake, and such a run's report
/// shows those only for steps that need attention.
///
/// Each fixture of a track has one file, `.step-cache/<track>/settled/<fixture>.json`:
/// a line of what is read back, then the fixture's `results.json` text, which stays
/// on disk until the report copies it.
struct SettledFixtures: Sendable {
    /// The step cache's folder.
    let folder: URL
    let golden: any GoldenStorage
    /// The run's choices the report depends on beyond each fixture's key.
    let context: [String]

    /// Whether a run of `stepCount` steps reads fixtures back and keeps them.
    static func applies(toStepCount stepCount: Int) -> Bool {
        stepCount > HTMLReport.detailLimit
    }

    private struct Entry: Codable {
        var key: String
        var steps: [Step]

        struct Step: Codable {
            /// Without its output and prompt, and its valid replies' text.
            var result: StepResult
            var verdict: StepVerdict?
            /// Whether each check passed in the golden entry the step was judged against:
            /// `1`, `0` or `-` (no result) per check, in order; nil without an entry.
            var passedInGolden: String?
            var outputFingerprint: String?
        }
    }

    /// A fixture read back.
    struct ReadBack: Sendable {
        var result: FixtureResult
        var verdicts: [StepVerdict]
        var report: FixtureReport
    }

    /// What the fixture's file must have been kept under: its steps' keys, the golden
    /// files they are judged against, and the run's choices. Nil when the golden store
    /// cannot tell its files' contents.
    func key(for fixture: String, _ key: FixtureKey) -> String? {
        guard let digest = golden.contentDigest(of: key.modelSteps.map { StepKey(fixture: fixture, id: $0) }) else { return nil }
        return SHA256Digest.hex(of: (["settled fixture 1", fixture, key.chain, digest] + context).joined(separator: "\n"))
    }

    func file(of fixture: String, track: String) -> URL {
        folder.appendingPathComponent(track, isDirectory: true).appendingPathComponent("settled", isDirectory: true)
            .appendingPathComponent(fixture + ".json")
    }

    /// The fixture as the run that kept it left it, if its key is still the same.
    func read(_ fixture: Fixture, _ key: FixtureKey) -> ReadBack? {
        guard let expected = self.key(for: fixture.name, key) else { return nil }
        let url = file(of: fixture.name, track: key.track)
        // The results.json text after the first line stays on disk.
        guard let (line, fileSize) = FileBytes.firstLine(of: url.path), fileSize > line.count + 2,
              let header = try? JSONParser.parse(line),
              let entry = try? JSONValueDecoder().decode(Entry.self, from: header),
              entry.key == expected
        else { return nil }
        let text = StoredBytes(file: url, offset: line.count + 1, count: fileSize - line.count - 2)
        var results: [StepResult] = []
        var verdicts: [StepVerdict] = []
        var steps: [StepReport] = []
        for step in entry.steps {
            results.append(step.result)
            if let verdict = step.verdict { verdicts.append(verdict) }
            var report = StepReport(step.result, verdict: step.verdict, approved: nil)
            if let marks = step.passedInGolden.map(Array.init), marks.count == report.checks.count {
                for index in marks.indices { report.checks[index].passedInGolden = marks[index] == "-" ? nil : marks[index] == "1" }
            }
            report.outputFingerprint = step.outputFingerprint
            steps.append(report)
        }
        return ReadBack(
            result: FixtureResult(fixture: fixture.name, steps: results), verdicts: verdicts,
            report: FixtureReport(name: fixture.name, intake: .null, steps: steps, storedText: text))
    }

    /// Keeps a fixture that every step of passes the gate, with the golden files as they
    /// are now (after the run wrote or cleared its pending outputs). Returns the report
    /// with its `results.json` text on disk and each output's fingerprint, or nil when
    /// the fixture is not kept. A file that cannot be written only costs the next run time.
    func keep(
        _ report: FixtureReport, result: FixtureResult, verdicts: [StepKey: StepVerdict], approved: [StepKey: GoldenEntry], key: FixtureKey
    ) -> FixtureReport? {
        guard report.steps.allSatisfy(\.passesGate), report.storedText == nil,
              let digest = self.key(for: report.name, key), let text = try? report.canonicalJSON()
        else { return nil }
        var kept = report
        var steps: [Entry.Step] = []
        for (index, stepResult) in result.steps.enumerated() {
            let stepKey = StepKey(fixture: report.name, id: stepResult.id)
            let fingerprint = stepResult.output.map { Fingerprint.of(bytes: $0.serializedBytes(.canonical)) }
            kept.steps[index].outputFingerprint = fingerprint
            var light = stepResult
            light.output = nil
            light.prompt = nil
            light.attempts = light.attempts.map { attempt in
                var attempt = attempt
                if attempt.problems.isEmpty { attempt.responseText = "" }
                return attempt
            }
            let marks = approved[stepKey] == nil ? nil : String(report.steps[index].checks.map { $0.passedInGolden.map { $0 ? "1" : "0" } ?? "-" })
            steps.append(Entry.Step(result: light, verdict: verdicts[stepKey], passedInGolden: marks, outputFingerprint: fingerprint))
        }
        let url = file(of: report.name, track: key.track)
        guard let header = try? JSONValueEncoder().encode(Entry(key: digest, steps: steps)).serializedBytes(.canonical) else { return nil }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(header + [UInt8(ascii: "\n")] + text + [UInt8(ascii: "\n")]).write(to: url, options: .atomic)
        } catch {
            return nil
        }
        kept.storedText = StoredBytes(file: url, offset: header.count + 1, count: text.count)
        return kept
    }
}
