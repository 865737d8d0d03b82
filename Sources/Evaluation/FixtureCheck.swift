import Checks
import Foundation
import Intake
import Pipeline

/// `fixtures check`: every problem in the records and scenarios, and a warning for
/// each person whose answers are written in a language the coaching data does not
/// cover, which a run would otherwise pass over in silence.
public struct FixtureCheck: Sendable {
    public var report: FixtureCheckReport
    /// Each record in an uncovered language, with its file.
    public var languageGaps: [(file: String, gap: LanguageSupport.Gap)]
}

extension Project {
    /// Checks the fixtures `paths` names (none: the whole corpus). Coaching data that
    /// cannot be read is an error naming its file and line.
    public func checkFixtures(paths: [URL]) throws -> FixtureCheck {
        let report = try corpus().check(paths: paths)
        let support = LanguageSupport(knowledge: try CoachingKnowledge.load(layout: layout))
        let gaps = report.records.compactMap { checked in support.gap(for: checked.record).map { (checked.file, $0) } }
        return FixtureCheck(report: report, languageGaps: gaps)
    }
}
