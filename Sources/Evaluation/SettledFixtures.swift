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
        return SHA256Digest.hex(of: (["settled fixture 2", fixture, key.chain, digest] + context).joined(separator: "\n"))
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
              let header = try? JSONParser.parse(line), header["key"]?.stringValue == expected,
              let kept = header["steps"]?.arrayValue
        else { return nil }
        let ids = FixturePlan(fixture).steps.map(\.id)
        guard kept.count == ids.count else { return nil }
        var results: [StepResult] = []
        var verdicts: [StepVerdict] = []
        var steps: [StepReport] = []
        for (json, id) in zip(kept, ids) {
            guard let step = Step(json, id: id, fixture: fixture.name) else { return nil }
            results.append(step.result)
            if let verdict = step.verdict { verdicts.append(verdict) }
            var report = StepReport(step.result, verdict: step.verdict, approved: nil)
            for index in report.checks.indices { report.checks[index].passedInGolden = step.passedInGolden[index] }
            report.outputFingerprint = step.outputFingerprint
            steps.append(report)
        }
        let text = StoredBytes(file: url, offset: line.count + 1, count: fileSize - line.count - 2)
        return ReadBack(
            result: FixtureResult(fixture: fixture.name, steps: results), verdicts: verdicts,
            report: FixtureReport(name: fixture.name, intake: .null, steps: steps, storedText: text))
    }

    /// Keeps a fixture that every step of passes the gate, with the golden files as they
    /// are now (after the run wrote or cleared its pending outputs). Returns the report
    /// with its `results.json` text on disk and each output's fingerprint, or nil when
    /// the fixture is not kept. A file that cannot be written only costs the next run time.
    func keep(_ report: FixtureReport, result: FixtureResult, verdicts: [StepKey: StepVerdict], key: FixtureKey) -> FixtureReport? {
        guard report.steps.allSatisfy(\.passesGate), report.storedText == nil,
              let digest = self.key(for: report.name, key), let text = try? report.canonicalJSON()
        else { return nil }
        var kept = report
        var steps: [JSONValue] = []
        for (index, stepResult) in result.steps.enumerated() {
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
            let step = Step(
                result: light, verdict: verdicts[StepKey(fixture: report.name, id: stepResult.id)],
                passedInGolden: report.steps[index].checks.map(\.passedInGolden), outputFingerprint: fingerprint)
            guard let json = try? step.json() else { return nil }
            steps.append(json)
        }
        let url = file(of: report.name, track: key.track)
        let header = JSONValue.object(JSONObject([.init(key: "key", value: .string(digest)), .init(key: "steps", value: .array(steps))]))
            .serializedBytes(.canonical)
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
