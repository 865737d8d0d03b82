import Foundation
import JSONSchema
import Testing

/// `trainer-eval validate`, run as a subprocess on real files in a temporary folder.
@Suite(.serialized) struct ValidateCommandTests {
    static let schema = #"""
        {"type": "object", "required": ["days"], "additionalProperties": false,
         "properties": {"days": {"type": "integer", "minimum": 1, "maximum": 7}, "name": {"type": "string"}}}
        """#

    /// The built `trainer-eval`, which sits beside the test bundle in the build folder.
    static func binary() throws -> URL {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let url = folder.appendingPathComponent("trainer-eval")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw Failure("trainer-eval is not built at \(url.path); run `swift build` first")
        }
        guard try help(url).contains("trainer-eval validate") else {
            throw Failure("trainer-eval has no `validate` subcommand: register ValidateCommand in the root command's subcommands")
        }
        return url
    }

    private static func help(_ binary: URL) throws -> String {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["validate", "--help"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `trainer-eval validate ARGUMENTS` in `folder`.
    static func validate(_ arguments: [String], in folder: URL, stdin: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = try binary()
        process.arguments = ["validate"] + arguments
        process.currentDirectoryURL = folder
        let output = Pipe(), errors = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let run = Run(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
        return run
    }

    /// A temporary folder with the schema and some instances.
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("validate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try schema.write(to: folder.appendingPathComponent("schema.json"), atomically: true, encoding: .utf8)
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return folder
    }

    @Test func validInstancesExitZero() throws {
        let folder = try Self.folder(["a.json": #"{"days": 3}"#, "b.json": #"{"days": 5, "name": "Ana"}"#])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.validate(["--schema", "schema.json", "a.json", "b.json"], in: folder)
        #expect(run.status == 0)
        #expect(run.stdout == "a.json: valid\nb.json: valid\n")
    }

    @Test func invalidInstancesExitOneWithReadableErrors() throws {
        let folder = try Self.folder(["ok.json": #"{"days": 3}"#, "bad.json": #"{"days": 9, "hieght": 70}"#])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.validate(["--schema", "schema.json", "ok.json", "bad.json"], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout == """
            ok.json: valid
            bad.json: 2 errors
              /days: `days` is 9; the maximum is 7
              /hieght: unknown property `hieght`

            """)
    }

    @Test func jsonLinesOnePerInstanceWithPathsAsGiven() throws {
        let folder = try Self.folder(["ok.json": #"{"days": 3}"#, "bad.json": #"{}"#])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.validate(["--schema", "schema.json", "--format", "json", "./ok.json", "bad.json"], in: folder)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let first = try JSONParser.parse(lines[0]), second = try JSONParser.parse(lines[1])
        #expect(first == ["instance": "./ok.json", "valid": true, "errors": []])
        #expect(second["instance"] == "bad.json")
        #expect(second["valid"] == false)
        #expect(second["errors"] == [["instanceLocation": "", "keywordLocation": "/required", "message": "missing required property `days`"]])
    }

    @Test func readsStandardInputForADash() throws {
        let folder = try Self.folder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.validate(["--schema", "schema.json", "--format", "json", "-"], in: folder, stdin: #"{"days": 0}"#)
        #expect(run.status == 1)
        #expect(run.stdout.hasPrefix(#"{"instance":"-","valid":false"#))
    }

    @Test func unparseableInstanceIsReportedAndExitsTwo() throws {
        let folder = try Self.folder(["ok.json": #"{"days": 3}"#, "broken.json": "{\"days\": 3,\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.validate(["--schema", "schema.json", "broken.json", "ok.json", "missing.json"], in: folder)
        #expect(run.status == 2)
        #expect(run.stdout.contains("broken.json: not valid JSON: line 2, column 1: the document is truncated"))
        #expect(run.stdout.contains("ok.json: valid"))
        #expect(run.stdout.contains("missing.json: cannot read: no such file"))
    }

    @Test func invalidSchemaExitsTwoOnStandardError() throws {
        let folder = try Self.folder(["a.json": "{}", "bad-schema.json": #"{"type": "strin"}"#])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.validate(["--schema", "bad-schema.json", "a.json"], in: folder)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("bad-schema.json"))
        #expect(run.stderr.contains("unknown type \"strin\""))
    }

    @Test func assertFormatFlag() throws {
        let folder = try Self.folder(["a.json": #""not-a-date""#, "s.json": #"{"format": "date"}"#])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.validate(["--schema", "s.json", "a.json"], in: folder).status == 0)
        #expect(try Self.validate(["--schema", "s.json", "--assert-format", "a.json"], in: folder).status == 1)
    }

    @Test func aFolderMeansItsJSONFiles() throws {
        let folder = try Self.folder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputs = folder.appendingPathComponent("outputs")
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        try #"{"days": 2}"#.write(to: outputs.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
        try #"{"days": 8}"#.write(to: outputs.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        try "notes".write(to: outputs.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let run = try Self.validate(["--schema", "schema.json", "outputs"], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout == "outputs/a.json: 1 error\n  /days: `days` is 8; the maximum is 7\noutputs/b.json: valid\n")
    }

    @Test func thousandsOfInstancesInOneCall() throws {
        var files: [String: String] = [:]
        for index in 0..<2_000 { files["i\(index).json"] = #"{"days": \#(index % 7 + 1)}"# }
        let folder = try Self.folder(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = (0..<2_000).map { "i\($0).json" }
        let start = Date()
        let run = try Self.validate(["--schema", "schema.json", "--format", "json"] + names, in: folder)
        #expect(run.status == 0)
        #expect(run.stdout.split(separator: "\n").count == 2_000)
        #expect(Date().timeIntervalSince(start) < 20)
    }
}

/// The report lines themselves, without a subprocess.
@Suite struct InstanceReportTests {
    @Test func exitStatusFollowsTheWorstOutcome() throws {
        let schema = try Schema(jsonText: #"{"type": "integer"}"#)
        let valid = InstanceReport(path: "a", bytes: Array("1".utf8), schema: schema)
        let invalid = InstanceReport(path: "b", bytes: Array("\"x\"".utf8), schema: schema)
        let broken = InstanceReport(path: "c", bytes: Array("[".utf8), schema: schema)
        #expect(InstanceReport.exitStatus([valid]) == 0)
        #expect(InstanceReport.exitStatus([valid, invalid]) == 1)
        #expect(InstanceReport.exitStatus([invalid, broken]) == 2)
        #expect(broken.text.hasPrefix("c: not valid JSON: line 1, column 2"))
        #expect(invalid.rendered(.json) == #"{"instance":"b","valid":false,"errors":[{"instanceLocation":"","keywordLocation":"/type","message":"expected integer, got string \"x\""}]}"#)
    }
}
