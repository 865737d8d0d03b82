import Foundation
import Golden
import Intake
import Pipeline
import Providers
import Storage

extension Project {
    /// What `judge` found: each approved output's verdict from the rubric's judge, the
    /// outputs it could not judge, and the judge's agreement with reviewers' labels,
    /// measured exactly as a code check's is.
    public struct Judgement: Sendable {
        public struct Judged: Sendable {
            public var key: StepKey
            public var verdict: Rubric.Verdict
        }

        public var rubric: Rubric
        public var judged: [Judged]
        /// `fixture/step: why`, for an output the judge gave no verdict on (no recording, an unreadable reply, a failed call).
        public var notJudged: [String]
        /// Over the fresh labels of the outputs judged; nil when none of them is labelled.
        public var agreement: Agreement?
        /// Labels of the rubric's kind of output on the track, fresh and stale.
        public var labels: Int
        /// Where the judge's calls are recorded, relative to the project.
        public var recordings: String
        /// The model behind the verdicts.
        public var answeringModel: String
    }

    /// Where a rubric's calls are recorded: `golden/judges/<rubric>/`, with a variant
    /// track's under `variants/<label>/` inside it.
    public func judgeRecordings(rubric: String, track: VariantTrack?) -> URL {
        let folder = layout.golden.appendingPathComponent(ReservedGoldenFolder.judges, isDirectory: true)
            .appendingPathComponent(rubric, isDirectory: true)
        return track.map { $0.folder(in: folder) } ?? folder
    }

    /// Asks the rubric's judge about every approved output of its kind on the variants'
    /// track (the fixtures named, else all), through the provider `settings` describe:
    /// a replay of the recorded verdicts by default, so CI stays offline. Approved
    /// outputs that could not be used are not judged.
    public func judge(rubric name: String, settings: ProviderSettings, variants: [String] = [], fixtures names: [String] = []) async throws -> Judgement {
        let rubric = try Rubric.load(named: name, layout: layout)
        let prompts = try prompts(variants: variants)
        let track = prompts.variants.track
        let golden = GoldenStore.forRun(golden: layout.golden, track: track)
        let folder = judgeRecordings(rubric: name, track: track)
        let provider = try provider(settings, recordingInto: CassetteStore(folder: folder), prices: try prices())

        var judged: [Judgement.Judged] = []
        var notJudged: [String] = []
        var kinds: [StepKey: String] = [:]
        for fixture in try corpus().load(names: names) {
            let plan = FixturePlan(fixture)
            for planned in plan.steps {
                guard let step = planned.modelStep, rubric.judges(step) else { continue }
                let key = StepKey(fixture: fixture.name, step: planned.id.description)
                guard let approved = try golden.approved(key), approved.isUsable else { continue }
                kinds[key] = rubric.appliesTo
                let request = rubric.request(fixture: fixture, step: planned.id.description, feedback: planned.feedback, output: approved.output)
                do {
                    let response = try await provider.complete(request)
                    judged.append(.init(key: key, verdict: try Rubric.verdict(from: response.text)))
                } catch let error as ProviderError {
                    let file = layout.displayPath(of: folder.appendingPathComponent("\(key.fixture)/\(key.step).cassette.json"))
                    switch error.kind {
                    case .missingRecording: notJudged.append("\(key): no recorded verdict in \(file)")
                    case .staleRecording: notJudged.append("\(key): the verdict in \(file) was recorded for another request (the output or the rubric changed since)")
                    default: notJudged.append("\(key): \(error.message)")
                    }
                } catch {
                    notJudged.append("\(key): \(error)")
                }
            }
        }

        let labelled = try golden.labelled().filter { kinds[$0.key] != nil }
        let verdicts = Dictionary(uniqueKeysWithValues: judged.map { entry in
            (entry.key, Agreement.Judged(
                key: entry.key, kind: rubric.appliesTo, failedChecks: entry.verdict.passed ? [] : ["rubric.\(rubric.name)"], isApprovedOutput: true))
        })
        let agreement = labelled.isEmpty ? nil : Agreement(labelled: labelled, judged: verdicts)
        return Judgement(
            rubric: rubric, judged: judged, notJudged: notJudged, agreement: agreement, labels: labelled.count,
            recordings: layout.displayPath(of: folder), answeringModel: provider.answeringModel)
    }
}
