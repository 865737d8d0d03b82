import Foundation
import TestSupport
import Testing

@Suite("trainer-eval compare with repeats", .serialized)
struct CompareRepeatsTests {
    @Test func compareWeighsEachCasesShareOfPassingRepeats() throws {
        let project = try RunCommandTests.makeProject()
        defer { try? FileManager.default.removeItem(at: project) }
        // Run A: both repeats pass. Run B: the second repeat repeats an id.
        let server = try LoopbackServer(sequence: ResponseSequence(
            [.json(RunCommandTests.completion(RunCommandTests.options)), .json(RunCommandTests.completion(RunCommandTests.options)),
             .json(RunCommandTests.completion(RunCommandTests.options)), .json(RunCommandTests.completion(RepeatTests.repeatedID))]))
        defer { server.stop() }
        for _ in 0..<2 {
            let run = try CommandRunner.run(
                ["run", "--project", project.path, "--provider", "openai-compatible", "--base-url", server.url("/v1").absoluteString,
                 "--fixture", "minimal-record", "--until", "goal-options", "--repeat", "2"],
                environment: ["OPENAI_API_KEY": "test"])
            #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        }
        let json = try CommandRunner.run(["compare", "--project", project.path, "latest~1", "latest", "--format", "json"])
        #expect(json.status == 0, "\(json.standardOutput)\(json.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect(object?["pairs"] as? Int == 1 && object?["verdict"] as? String == "too-few-pairs", "the first repeats pass in both: one pair cannot decide")
        let repeats = object?["repeats"] as? [String: Any]
        // One case, 1 of 1 → 1 of 2: one difference of −0.5, statistic 0, exact two-sided p = 1.
        #expect(repeats?["repeats"] as? Int == 2 && repeats?["cases"] as? Int == 1)
        #expect(repeats?["a_mean_pass_rate"] as? Double == 1 && repeats?["b_mean_pass_rate"] as? Double == 0.5)
        #expect(repeats?["statistic"] as? Double == 0 && repeats?["p_value"] as? Double == 1)

        let text = try CommandRunner.run(["compare", "--project", project.path, "latest~1", "latest"])
        #expect(text.standardOutput.contains("repeats: 2 per case · 1 case · "), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("(Wilcoxon signed-rank): no-difference"))
    }
}
