import Foundation
import Golden
import Intake

extension RunReport {
    /// Why `parts` are not pieces of one run, one line each; empty when they are.
    ///
    /// Pieces of one run come from the same commit, prompts (fingerprints and
    /// variants), provider and model, gate mode and repeats; their fixtures do not
    /// overlap; and shards are all of 1...N for one N.
    public static func mismatches(among parts: [RunReport]) -> [String] {
        guard !parts.isEmpty else { return ["no runs to merge"] }
        var problems: [String] = []
        func differing<Value: Hashable>(
            _ what: String, _ value: (RunReport) -> Value, _ show: (Value) -> String, among runs: [RunReport]? = nil
        ) {
            var seen: [Value: [String]] = [:]
            for part in runs ?? parts { seen[value(part), default: []].append(part.run.id) }
            guard seen.count > 1 else { return }
            let listed = seen.map { "\(show($0.key)) (\($0.value.sorted().joined(separator: ", ")))" }.sorted()
            problems.append("different \(what): " + listed.joined(separator: " vs "))
        }
        differing("commits", { $0.run.commit ?? "" }, { $0.isEmpty ? "no commit" : $0 })
        differing("providers", { "\($0.run.provider) \($0.run.model)" }, { $0 })
        for step in Set(parts.flatMap { $0.run.prompts.keys }).sorted() {
            differing("variants of \(step)", { $0.run.prompts[step]?.variant ?? "" }, { $0.isEmpty ? "the base prompt" : "variant \($0)" })
            differing("prompt fingerprints of \(step)", { $0.run.prompts[step].map { "\($0.versionLabel) \($0.fingerprint)" } ?? "" }, { $0.isEmpty ? "not run" : $0 })
        }
        differing("gate modes", { $0.run.ci }, { $0 ? "--ci" : "without --ci" })
        differing("scopes", { $0.run.scope ?? "" }, { $0.isEmpty ? "unknown" : $0 })
        // A shard with no fixtures has no repeat statistics to compare.
        let sampled = parts.filter { !$0.fixtures.isEmpty }
        differing("repeat counts", { $0.repeats?.repeats ?? 1 }, { "\($0) repeat\($0 == 1 ? "" : "s")" }, among: sampled)
        differing("pass-rate requirements", { $0.repeats.map(passRateGate) ?? PassRateGate() }, { gate in
            gate.requiredRates.isEmpty ? "none"
                : gate.requiredRates.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + " on the \(gate.basis.rawValue)"
        }, among: sampled)

        var owner: [String: String] = [:]
        var overlaps: [[String]: [String]] = [:]
        for part in parts {
            for fixture in part.fixtures {
                if let earlier = owner[fixture.name] {
                    overlaps[[earlier, part.run.id], default: []].append(fixture.name)
                } else {
                    owner[fixture.name] = part.run.id
                }
            }
        }
        for (runs, fixtures) in overlaps.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let named = fixtures.prefix(5).joined(separator: ", ") + (fixtures.count > 5 ? " and \(fixtures.count - 5) more" : "")
            problems.append("\(fixtures.count) fixture\(fixtures.count == 1 ? " is" : "s are") in both \(runs[0]) and \(runs[1]): \(named)")
        }

        let shards = parts.compactMap(\.run.shard)
        if !shards.isEmpty {
            if shards.count < parts.count { problems.append("some runs are shards and some are not") }
            let counts = Set(shards.map(\.count))
            if counts.count > 1 {
                problems.append("different shard counts: " + counts.sorted().map { "of \($0)" }.joined(separator: " vs "))
            } else if let count = counts.first {
                let missing = Set(1...count).subtracting(shards.map(\.index)).sorted()
                if !missing.isEmpty {
                    problems.append("shard\(missing.count == 1 ? "" : "s") " + missing.map { "\($0)/\(count)" }.joined(separator: ", ") + " missing: the gate would judge part of the suite")
                }
            }
        }
        return problems
    }

    /// `parts` joined into one run: fixtures in name order, totals and the gate
    /// recomputed over the whole, the earliest start and the longest part's duration
    /// (the wall time of parts run side by side).
    public static func merging(_ parts: [RunReport], id: String) -> RunReport {
        let ordered = parts.sorted { ($0.run.shard?.index ?? 0, $0.run.id) < ($1.run.shard?.index ?? 0, $1.run.id) }
        let first = ordered[0].run
        var warnings: [String] = []
        for warning in ordered.flatMap(\.run.warnings) where !warnings.contains(warning) { warnings.append(warning) }
        let run = RunInfo(
            id: id, startedAt: ordered.map(\.run.startedAt).min() ?? first.startedAt,
            durationSeconds: ordered.map(\.run.durationSeconds).max() ?? 0, provider: first.provider, model: first.model,
            commit: first.commit, prompts: first.prompts, ci: ordered.allSatisfy(\.run.ci),
            interrupted: ordered.contains(where: \.run.interrupted), warnings: warnings, mergedFrom: ordered.map(\.run.id),
            scope: first.scope, providerOption: first.providerOption)
        let fixtures = ordered.flatMap(\.fixtures).sorted { $0.name < $1.name }
        let orphans = Array(Set(ordered.flatMap(\.orphans))).sorted()
        // Repeat statistics are recomputed over every shard's repeats, under the gate the shards ran with.
        let repeats = (ordered.first { !$0.fixtures.isEmpty } ?? ordered[0]).repeats.map { RepeatStatistics(fixtures: fixtures, gate: passRateGate(of: $0)) }
        var totals = RunTotals()
        for step in fixtures.flatMap(\.steps) { totals.add(step) }
        totals.orphans = orphans.count
        totals.passesGate = RunReport.passes(fixtures, orphans: orphans.count, repeats: repeats, mode: .ci)
        var merged = RunReport(run: run, totals: totals, fixtures: fixtures, orphans: orphans, repeats: repeats)
        let gaps = ordered.flatMap { $0.languageGaps ?? [] }.sorted { $0.fixture < $1.fixture }
        merged.languageGaps = gaps.isEmpty ? nil : gaps
        return merged
    }

    typealias PassRateGate = RepeatStatistics.PassRateGate

    /// The `--min-pass-rate` and `--gate-on` a run with repeats was judged by, read back from its statistics.
    private static func passRateGate(of statistics: RepeatStatistics) -> PassRateGate {
        var rates: [String: Double] = [:]
        for step in statistics.steps { rates[step.step] = step.requiredPassRate }
        return PassRateGate(requiredRates: rates, basis: statistics.steps.compactMap(\.gateOn).first ?? .mean)
    }
}

extension RunReport {
    /// `gate passes · 142 steps: known failure 84 · pass 58`: the report's own verdict
    /// and counts with its labels, most severe first, so the terminal and the report agree.
    public var statusLine: String {
        var parts = StepVerdict.Status.allCases.sorted { $0.severity > $1.severity }.compactMap { status in
            count(status) > 0 ? "\(status.label) \(count(status))" : nil
        }
        if totals.orphans > 0 { parts.append("orphaned \(totals.orphans)") }
        if unallowedSafetyFailures > 0 { parts.insert("unsafe, not allowed \(unallowedSafetyFailures)", at: 0) }
        let steps = totals.statuses.values.reduce(0, +)
        return "\(totals.passesGate ? "gate passes" : "gate fails") · \(steps) step\(steps == 1 ? "" : "s")"
            + (parts.isEmpty ? "" : ": " + parts.joined(separator: " · "))
    }
}

extension RunReport {
    /// Whether the run passes in `mode`, as `Gate` judges its steps, orphans and pass
    /// rates; under CI, an approved output that fails a safety check with no reason
    /// allowing it fails the run too.
    public func passes(_ mode: Gate.Mode) -> Bool {
        Self.passes(fixtures, orphans: totals.orphans, repeats: repeats, mode: mode)
            && (mode == .development || unallowedSafetyFailures == 0)
    }

    /// Approved outputs that fail a safety check with no reason allowing them.
    public var unallowedSafetyFailures: Int {
        approvedSafetyFailures?.filter { $0.allowedBecause == nil }.count ?? 0
    }

    static func passes(_ fixtures: [FixtureReport], orphans: Int, repeats: RepeatStatistics?, mode: Gate.Mode) -> Bool {
        Gate.passes(fixtures.flatMap { $0.steps.map(\.status) }, orphans: orphans, meetsPassRates: repeats?.meetsRequirements ?? true, mode: mode)
    }
}
