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
/// a line of what is read back, then the fixture's texts in `results.json`,
/// `junit.xml` and `index.html`, which stay on disk until the report copies them.
///
/// A large run without the step cache still keeps its fixtures, in a folder of its
/// own that it deletes once the report is written (`readsBack` false): it never reads
/// them back, but it lets go of each kept fixture's outputs and prompts early, as
/// a run with the cache does, so its memory does not grow with the suite.
struct SettledFixtures: Sendable {
    /// The step cache's folder, or the run's own folder when it only spools.
    let folder: URL
    /// Whether fixtures are kept for later runs to read back (in the step cache).
    let readsBack: Bool
    let golden: any GoldenStorage
    /// The run's choices the report depends on beyond each fixture's key.
    let context: [String]
    /// `context` as a gate run (`run --ci`, which writes no pending files) has it.
    let gateContext: [String]
    /// The report's latencies and tokens are the recordings' (a replay).
    let recorded: Bool
    /// The variant each step ran, by step: `junit.xml` names them.
    let variants: [String: String]

    /// Whether a run of `stepCount` steps reads fixtures back and keeps them.
    static func applies(toStepCount stepCount: Int) -> Bool {
        stepCount > HTMLReport.detailLimit
    }

    /// Where a spooling run keeps a fixture, and the key it keeps it under (no run reads it back).
    static let spoolTrack = "run"
    static let spoolKey = "spooled"

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
        golden.contentDigest(of: key.modelSteps.map { StepKey(fixture: fixture, id: $0) })
            .map { Self.key(for: fixture, key, goldenDigest: $0, context: context) }
    }

    /// The key a gate run will look for once every pending output of the fixture's
    /// steps is accepted (see `keepOnceAccepted`).
    func keyOnceAccepted(for fixture: String, _ key: FixtureKey) -> String? {
        golden.contentDigestOnceAccepted(of: key.modelSteps.map { StepKey(fixture: fixture, id: $0) })
            .map { Self.key(for: fixture, key, goldenDigest: $0, context: gateContext) }
    }

    private static func key(for fixture: String, _ key: FixtureKey, goldenDigest: String, context: [String]) -> String {
        SHA256Digest.hex(of: (["settled fixture 4", fixture, key.chain, goldenDigest] + context).joined(separator: "\n"))
    }

    func file(of fixture: String, track: String) -> URL {
        folder.appendingPathComponent(track, isDirectory: true).appendingPathComponent("settled", isDirectory: true)
            .appendingPathComponent(fixture + ".json")
    }

    /// The fixture as the run that kept it left it, if it was kept under `expected` (see `key(for:_:)`).
    func read(_ fixture: Fixture, _ key: FixtureKey, keptUnder expected: String) -> ReadBack? {
        guard readsBack else { return nil }
        let url = file(of: fixture.name, track: key.track)
        // The report texts after the first line stay on disk.
        // The key is the header's first member: a fixture kept under another is not parsed.
        guard let (line, stamp) = FileBytes.firstLine(of: url.path), line.starts(with: Array(#"{"key":"\#(expected)""#.utf8)),
              let header = try? JSONParser.parse(line), header["key"]?.stringValue == expected,
              let kept = header["steps"]?.arrayValue,
              let counts = header["texts"]?.arrayValue?.compactMap(\.intValue), counts.count == 3,
              stamp.size == line.count + 1 + counts.reduce(0, +)
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
        let offsets = [line.count + 1, line.count + 1 + counts[0], line.count + 1 + counts[0] + counts[1]]
        let text = StoredFixtureText(
            results: StoredBytes(file: url, offset: offsets[0], count: counts[0], stamp: stamp),
            junit: StoredBytes(file: url, offset: offsets[1], count: counts[1], stamp: stamp),
            html: StoredBytes(file: url, offset: offsets[2], count: counts[2], stamp: stamp))
        return ReadBack(
            result: FixtureResult(fixture: fixture.name, steps: results), verdicts: verdicts,
            report: FixtureReport(name: fixture.name, intake: .null, steps: steps, storedText: text))
    }

    /// Keeps a fixture this run left pending outputs for as a gate run will find it once
    /// they are all accepted: each step judged against its pending output (or its
    /// approved one when nothing is pending), under `keyOnceAccepted`. The first gate after
    /// `accept` then reads the fixture back whole instead of judging every step again;
    /// if anything else changes first (only some outputs accepted, or none), the key
    /// differs and the gate judges the fixture as it would have. Kept only if every
    /// step would pass that gate; this run's own report is not touched.
    func keepOnceAccepted(_ fixture: Fixture, result: FixtureResult, key: FixtureKey, gate: GoldenGate) {
        guard readsBack, let digest = keyOnceAccepted(for: fixture.name, key) else { return }
        var judgements: [StepKey: GoldenGate.Judgement] = [:]
        for step in result.steps where step.step != nil {
            guard let judgement = try? gate.judgeOnceAccepted(step, fixture: fixture.name) else { return }
            judgements[StepKey(fixture: fixture.name, id: step.id)] = judgement
        }
        let report = FixtureReport(result, intake: fixture.recordJSON) { (judgements[$0]?.verdict, judgements[$0]?.approved) }
        _ = keep(report, result: result, verdicts: judgements.mapValues(\.verdict), track: key.track, under: digest)
    }

    /// Keeps a fixture that every step of passes the gate, with the golden files as they
    /// are now (after the run wrote or cleared its pending outputs). Returns the fixture
    /// as it would be read back (its report texts on disk, no outputs or prompts held),
    /// or nil when it is not kept. A file that cannot be written only costs the next run time.
    /// `digest` is `key(for:_:)` of the fixture with the golden files as they are now,
    /// and `track` its key's track (a spool's are `spoolKey` and `spoolTrack`).
    func keep(
        _ report: FixtureReport, result: FixtureResult, verdicts: [StepKey: StepVerdict], track: String, under digest: String
    ) -> ReadBack? {
        guard report.steps.allSatisfy(\.passesGate), report.storedText == nil, let text = try? report.canonicalJSON() else { return nil }
        var kept = report
        var lightResults: [StepResult] = []
        var steps: [JSONValue] = []
        for (index, stepResult) in result.steps.enumerated() {
            let fingerprint = stepResult.output.map { Fingerprint.of(bytes: $0.serializedBytes(.canonical)) }
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
            lightResults.append(light)
            kept.steps[index].outputFingerprint = fingerprint
        }
        let texts = [text, Array(JUnitReport.suite(kept, recorded: recorded, variants: variants).utf8),
                     Array(HTMLReport.section(kept, brief: true, recorded: recorded).utf8)]
        let url = file(of: report.name, track: track)
        let header = JSONValue.object(JSONObject([
            .init(key: "key", value: .string(digest)), .init(key: "steps", value: .array(steps)),
            .init(key: "texts", value: .array(texts.map { .number(Double($0.count)) })),
        ])).serializedBytes(.canonical)
        let stamp: FileStamp
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            stamp = try FileBytes.overwrite(url.path, with: [header + [UInt8(ascii: "\n")]] + texts)
        } catch {
            return nil
        }
        var offset = header.count + 1
        let stored = texts.map { text in
            defer { offset += text.count }
            return StoredBytes(file: url, offset: offset, count: text.count, stamp: stamp)
        }
        kept.storedText = StoredFixtureText(results: stored[0], junit: stored[1], html: stored[2])
        // Its texts are on disk: what the run goes on holding is what a read-back holds.
        kept.intake = .null
        for index in kept.steps.indices {
            (kept.steps[index].output, kept.steps[index].golden, kept.steps[index].prompt) = (nil, nil, nil)
            kept.steps[index].attempts = kept.steps[index].attempts.map { attempt in
                var attempt = attempt
                if attempt.problems.isEmpty { attempt.responseText = nil }
                return attempt
            }
        }
        return ReadBack(result: FixtureResult(fixture: report.name, steps: lightResults), verdicts: [], report: kept)
    }
}
