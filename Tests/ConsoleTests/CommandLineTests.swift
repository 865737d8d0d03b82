import Console
import Evaluation
import Foundation
import Golden
import Intake
import JSONSchema
import Testing

/// What the command line's library parts make of arguments as typed: the command that
/// resumes a stopped run, the scope a suggested command keeps, and `validate`'s paths.
struct CommandLineTests {
    @Test func theResumeLineRecordsWhatIsMissingKeepsTheBudgetsAndDropsTheGate() {
        let line = ResumeLine(arguments: ["run", "--provider", "local", "--record", "--ci", "--fixture", "busy parent", "--max-calls", "3"]).line
        #expect(line == "\(Invocation.command) run --provider local --record-missing --fixture 'busy parent' --max-calls 3")
        let twice = ResumeLine(arguments: ["run", "--record-missing", "--record"]).arguments
        #expect(twice == ["run", "--record-missing"], "one --record-missing, however it was asked for")
        #expect(ResumeLine.quoted("it's") == #"'it'\''s'"#)
    }

    @Test func aSuggestedCommandKeepsOnlyTheRunsScope() {
        let scope = ResumeLine.scope(of: ["run", "--ci", "--fixture", "ana", "--until=goal-options", "--tag", "travel", "--jobs", "2", "--shard", "1/3"])
        #expect(scope == " --fixture ana --until=goal-options --tag travel --shard 1/3")
    }

    @Test func validatesPathsAreTakenOutOfItsArgumentsInOrder() {
        var arguments = ["validate", "--schema", "s.json", "a.json", "--format=json", "-", "b", "--", "--odd.json"]
        let instances = ValidationSession.takingInstances(from: &arguments)
        #expect(instances == ["a.json", "-", "b", "--odd.json"])
        #expect(arguments == ["validate", "--schema", "s.json", "--format=json"])

        var other = ["run", "--fixture", "ana"]
        #expect(ValidationSession.takingInstances(from: &other) == nil)
        #expect(other == ["run", "--fixture", "ana"])
    }

    @Test func validateWithNothingToValidateIsBadInput() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let schema = folder.appendingPathComponent("s.json")
        try Data("{\"type\": \"object\"}".utf8).write(to: schema)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("empty"), withIntermediateDirectories: true)
        var statuses: [Gate.ExitStatus] = []
        let printed = try PrinterTests.printed { err in
            let session = ValidationSession(err: err)
            statuses.append(session.run(schemaFile: schema.path, instances: [folder.appendingPathComponent("empty").path], format: .text, options: .init()))
            statuses.append(session.run(schemaFile: schema.path, instances: [], format: .text, options: .init()))
        }
        #expect(statuses == [.badInput, .badInput])
        #expect(printed.contains("error: no instance files to validate"))
        #expect(printed.contains("error: give at least one instance file or folder"))
    }
}

/// Provider options that cannot be honoured together are refused with the option to fix.
struct ProviderSettingsTests {
    @Test func replayTakesNoRecordingNoLiveOptionsAndNoBudget() {
        #expect(throws: ProviderSettingsError.self) { try ProviderSettings(provider: .replay, recording: .all) }
        #expect(throws: ProviderSettingsError.self) { try ProviderSettings(provider: .replay, model: "qwen") }
        #expect(throws: ProviderSettingsError.self) { try ProviderSettings(provider: .replay, maxCalls: 3) }
        #expect((try? ProviderSettings(provider: .replay))?.configuration == nil)
    }

    @Test func aLiveProviderChecksItsLimitsAndItsURL() throws {
        do {
            _ = try ProviderSettings(provider: .local, baseURL: "127.0.0.1:8080/v1")
            Issue.record("a URL without a scheme was taken")
        } catch {
            #expect(error.description == "--base-url must be an absolute URL such as http://127.0.0.1:8080/v1, got 127.0.0.1:8080/v1.")
        }
        #expect(throws: ProviderSettingsError.self) { try ProviderSettings(provider: .local, retries: 11) }
        #expect(throws: ProviderSettingsError.self) { try ProviderSettings(provider: .local, maxMinutes: .infinity) }
        let settings = try ProviderSettings(provider: .local, recording: .missing, maxCost: 0.5)
        #expect(settings.configuration != nil)
        #expect(settings.recording == .missing)
        #expect(settings.maxCost == 0.5)
    }
}
