import Foundation
import Testing
@testable import Reports

@Suite("junit.xml for CI")
struct JUnitReviewTests {
    @Test func messagesAreOneShortLineWithTheDetailsOnceInTheBody() {
        let xml = JUnitReport.render(Samples.reportWithEveryStatus())
        let messages = xml.components(separatedBy: " message=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(messages.count == 6)
        for message in messages {
            #expect(!message.contains("&#10;") && message.count <= 200, "not one short line: \(message)")
        }
        #expect(xml.components(separatedBy: "+Their program today:").count == 2, "the prompt diff once, in the body")
    }

    @Test func eachKnownFailureIsListedOnce() {
        let xml = JUnitReport.render(Samples.reportWithEveryStatus())
        #expect(xml.components(separatedBy: "options.one-line-summaries").count == 2)
        #expect(xml.components(separatedBy: "known failure output.usable").count == 2)
    }

    @Test func aReplayTakesNoTimeAndLabelsTheRecordedFigures() {
        let xml = JUnitReport.render(Samples.reportWithEveryStatus())
        let times = xml.components(separatedBy: "<testcase ").dropFirst().map { $0.components(separatedBy: "time=\"")[1].prefix { $0 != "\"" } }
        #expect(!times.isEmpty && times.allSatisfy { $0 == "0.000" })

        var live = Samples.report()
        live.run.provider = "openai-compatible"
        let liveXML = JUnitReport.render(live)
        #expect(liveXML.contains("<testcase classname=\"busy-parent\" name=\"program-draft\" time=\"17.000\">"))
        #expect(!liveXML.contains("recorded"))
    }

    @Test(.enabled(if: xmllintPath != nil, "xmllint (libxml2-utils) is not installed: junit.xml is not checked against Reports/schema/junit.xsd"))
    func matchesTheCommittedSchema() throws {
        let xmllint = try #require(xmllintPath)
        for report in [Samples.report(), Samples.reportWithEveryStatus(), Samples.passingReport()] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("junit-\(UUID().uuidString).xml")
            try Data(JUnitReport.render(report).utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: xmllint)
            process.arguments = ["--noout", "--schema", ReportFilesTests.repositoryRoot.appendingPathComponent("Reports/schema/junit.xsd").path, file.path]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "junit.xml does not match Reports/schema/junit.xsd:\n\(message)")
        }
    }
}

/// xmllint from libxml2-utils (installed by `.ci/run`), when this machine has it.
let xmllintPath = ["/usr/bin/xmllint", "/usr/local/bin/xmllint"].first { FileManager.default.isExecutableFile(atPath: $0) }
