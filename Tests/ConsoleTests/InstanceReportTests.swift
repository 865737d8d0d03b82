import Console
import JSONSchema
import Testing

/// The report lines themselves, without a subprocess.
@Suite struct InstanceReportTests {
    @Test func exitStatusFollowsTheWorstOutcome() throws {
        let schema = try Schema(jsonText: #"{"type": "integer"}"#)
        let valid = InstanceReport(InstanceResult(path: "a", bytes: Array("1".utf8), schema: schema))
        let invalid = InstanceReport(InstanceResult(path: "b", bytes: Array("\"x\"".utf8), schema: schema))
        let broken = InstanceReport(InstanceResult(path: "c", bytes: Array("[".utf8), schema: schema))
        #expect(InstanceReport.exitStatus([valid]) == 0)
        #expect(InstanceReport.exitStatus([valid, invalid]) == 1)
        #expect(InstanceReport.exitStatus([invalid, broken]) == 2)
        #expect(broken.text.hasPrefix("c: not valid JSON: line 1, column 2"))
        #expect(invalid.rendered(.json) == #"{"instance":"b","valid":false,"errors":[{"instanceLocation":"","keywordLocation":"/type","message":"expected integer, got string \"x\""}]}"#)
    }
}
