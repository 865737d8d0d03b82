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

    /// Writes `files` (relative paths, subfolders created as needed) into `folder`.
    static func write(_ files: [String: String], in folder: URL) throws {
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    /// A temporary folder with the schema and some instances.
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("validate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try write(files.merging(["schema.json": schema]) { file, _ in file }, in: folder)
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

    /// Paths around and between the options, and after `--`, in the order given: the
    /// paths are taken out before the options are parsed (a shell glob of thousands).
    @Test func pathsMayStandAnywhereAmongTheOptions() throws {
        let folder = try Self.folder(["a.json": #"{"days": 3}"#, "b.json": #"{"days": 4}"#, "-c.json": #"{"days": 5}"#])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.validate(["a.json", "--format", "json", "b.json", "--schema", "schema.json", "--", "-c.json"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let instances = run.stdout.split(separator: "\n").compactMap { try? JSONParser.parse(String($0))["instance"]?.stringValue }
        #expect(instances == ["a.json", "b.json", "-c.json"])
    }

    @Test func manyPathsAsArgumentsAreAllValidated() throws {
        let names = (1...500).map { "i\($0).json" }
        let folder = try Self.folder(Dictionary(uniqueKeysWithValues: names.map { ($0, #"{"days": 2}"#) }))
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.validate(["--schema", "schema.json"] + names, in: folder)
        #expect(run.status == 0)
        #expect(run.stdout.split(separator: "\n").count == 500)
    }

    @Test func aDashReadsPathsFromStandardInput() throws {
        let folder = try Self.folder(["a.json": #"{"days": 3}"#, "b.json": #"{"days": 0}"#])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.validate(["--schema", "schema.json", "-"], in: folder, stdin: "b.json\n\n   \na.json\n")
        #expect(run.status == 1)
        #expect(run.stdout == "b.json: 1 error\n  /days: `days` is 0; the minimum is 1\na.json: valid\n")
    }

    @Test func standardInputPathsGoBetweenTheArgumentsAroundTheDash() throws {
        let folder = try Self.folder(["a.json": "1", "b.json": "2", "c.json": "3", "d.json": "4"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"{"type": "integer"}"#.write(to: folder.appendingPathComponent("int.json"), atomically: true, encoding: .utf8)
        let run = try Self.validate(["--schema", "int.json", "d.json", "-", "a.json"], in: folder, stdin: "c.json\nb.json")
        #expect(run.status == 0)
        #expect(run.stdout == "d.json: valid\nc.json: valid\nb.json: valid\na.json: valid\n")
    }

    @Test func emptyStandardInputIsAnError() throws {
        let folder = try Self.folder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.validate(["--schema", "schema.json", "-"], in: folder, stdin: "\n")
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("no instance files to validate"))
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

    @Test func aMissingSchemaFileSaysWhichOptionToCheck() throws {
        let folder = try Self.folder(["a.json": "{}"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.validate(["--schema", "nope.json", "a.json"], in: folder)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "error: cannot read schema nope.json: no such file; check the path given to --schema\n")
    }

    @Test func assertFormatFlag() throws {
        let folder = try Self.folder(["a.json": #""not-a-date""#, "s.json": #"{"format": "date"}"#])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.validate(["--schema", "s.json", "a.json"], in: folder).status == 0)
        #expect(try Self.validate(["--schema", "s.json", "--assert-format", "a.json"], in: folder).status == 1)
    }

    @Test func aFolderMeansEveryJSONFileBelowItInNameOrder() throws {
        let folder = try Self.folder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.write([
            "outputs/b.json": #"{"days": 2}"#,
            "outputs/a.json": #"{"days": 8}"#,
            "outputs/notes.txt": "notes",
            "outputs/week2/mon.json": #"{"days": 1}"#,
            "outputs/week2/deep/x.json": #"{"days": 4}"#,
            "outputs/week1/tue.json": #"{"days": 5}"#,
            "outputs/empty/readme.md": "nothing here",
        ], in: folder)
        let run = try Self.validate(["--schema", "schema.json", "outputs/"], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout == """
            outputs/a.json: 1 error
              /days: `days` is 8; the maximum is 7
            outputs/b.json: valid
            outputs/week1/tue.json: valid
            outputs/week2/deep/x.json: valid
            outputs/week2/mon.json: valid

            """)
    }

    @Test func aMissingFileAmongGoodOnesIsReportedByNameAndTheRestValidated() throws {
        let folder = try Self.folder(["a.json": #"{"days": 1}"#, "c.json": #"{"days": 3}"#])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.validate(["--schema", "schema.json", "-"], in: folder, stdin: "a.json\nmissing.json\nc.json\n")
        #expect(run.status == 2)
        #expect(run.stdout == "a.json: valid\nmissing.json: cannot read: no such file\nc.json: valid\n")

        let json = try Self.validate(["--schema", "schema.json", "--format", "json", "a.json", "missing.json"], in: folder)
        #expect(json.status == 2)
        let lines = try json.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(lines == [
            ["instance": "a.json", "valid": true, "errors": []],
            ["instance": "missing.json", "valid": false, "errors": [], "error": "cannot read: no such file"],
        ])
    }

    @Test func reportsComeOutInInputOrderUnderParallelism() throws {
        // More files than one chunk, uneven in size, so workers finish out of order.
        var files: [String: String] = [:]
        var expected: [JSONValue] = []
        for index in 0..<1_500 {
            let name = "n\(index).json"
            let days = index % 9
            let padding = String(repeating: " ", count: (index * 7919) % 4_000)
            files[name] = #"{"days": \#(days)\#(padding)}"#
            expected.append(["instance": .string(name), "valid": .bool(days >= 1 && days <= 7)])
        }
        let folder = try Self.folder(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let order = (0..<1_500).map { "n\($0).json" }.reversed()
        let run = try Self.validate(
            ["--schema", "schema.json", "--format", "json", "-"], in: folder, stdin: order.joined(separator: "\n"))
        #expect(run.status == 1)
        let lines = try run.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(lines.map { ["instance": $0["instance"]!, "valid": $0["valid"]!] } == Array(expected.reversed()))
    }

    @Test func thousandsOfInstancesInOneCall() throws {
        var files: [String: String] = [:]
        for index in 0..<2_000 { files["i\(index).json"] = #"{"days": \#(index % 7 + 1)}"# }
        let folder = try Self.folder(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = (0..<2_000).map { "i\($0).json" }
        let run = try Self.validate(["--schema", "schema.json", "--format", "json"] + names, in: folder)
        #expect(run.status == 0)
        #expect(run.stdout.split(separator: "\n").count == 2_000)
    }
}
