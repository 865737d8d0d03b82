import Foundation
import JSONSchema
import Testing

/// The official JSON-Schema-Test-Suite for draft 2020-12.
@Suite struct ConformanceSuiteTests {
    @Test func requiredTestsPass() throws {
        let registry = try TestSuiteSupport.registry()
        let skips = try TestSuiteSupport.skips()
        var cases: [TestSuiteSupport.Case] = []
        for file in try TestSuiteSupport.testFiles() { cases += try TestSuiteSupport.cases(in: file) }
        let outcome = TestSuiteSupport.run(cases, registry: registry, skips: skips)
        print("JSON-Schema-Test-Suite draft2020-12: \(outcome.passed) passed, \(outcome.failures.count) failed, \(outcome.skipped) skipped")
        #expect(cases.count == 1299, "this suite version has 1299 required tests")
        #expect(outcome.failures.isEmpty, "\(outcome.failures.count) failures:\n\(outcome.failures.prefix(60).joined(separator: "\n"))")
        for skip in skips {
            #expect(!skip.reason.isEmpty, "skip of \(skip.file) › \(skip.group) needs a reason")
        }
    }

    /// The formats this validator asserts, with `assertsFormat` on.
    static let assertedFormats = [
        "date", "date-time", "time", "duration", "email", "uuid", "uri", "ipv4", "ipv6", "json-pointer",
    ]

    @Test func assertedFormatsPass() throws {
        let registry = try TestSuiteSupport.registry()
        var cases: [TestSuiteSupport.Case] = []
        for file in try TestSuiteSupport.testFiles("optional/format")
        where Self.assertedFormats.contains(file.deletingPathExtension().lastPathComponent) {
            cases += try TestSuiteSupport.cases(in: file)
        }
        let outcome = TestSuiteSupport.run(cases, registry: registry, options: ValidationOptions(assertsFormat: true))
        print("JSON-Schema-Test-Suite draft2020-12 optional/format (asserted): \(outcome.passed) passed, \(outcome.failures.count) failed, 0 skipped")
        #expect(outcome.failures.isEmpty, "\(outcome.failures.count) failures:\n\(outcome.failures.prefix(60).joined(separator: "\n"))")
    }
}
