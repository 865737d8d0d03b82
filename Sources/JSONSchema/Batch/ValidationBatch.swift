import Foundation

/// Validates many instance files against one schema: read, parse and validate
/// side by side on every core, reports written in input order.
///
/// Files are taken a chunk at a time, so memory stays bounded however many
/// there are, and output starts before the last file is read.
///
/// ```swift
/// let batch = try ValidationBatch(schemaFile: "schema.json", format: .text)
/// let summary = batch.run(InstancePaths(["outputs/"]))
/// exit(summary.exitStatus)
/// ```
public struct ValidationBatch: Sendable {
    public let schema: Schema
    public let format: ValidationReportFormat
    /// How many files are validated side by side before their reports are written.
    public var chunkSize = 512

    public init(schema: Schema, format: ValidationReportFormat) {
        self.schema = schema
        self.format = format
    }

    /// Reads and compiles the schema in the file at `path`; its relative
    /// references resolve against the file's location.
    public init(schemaFile path: String, options: ValidationOptions = .init(), format: ValidationReportFormat) throws(SchemaFileError) {
        let bytes: [UInt8]
        do {
            bytes = try FileContents.bytes(of: path)
        } catch {
            throw SchemaFileError(path: path, problem: .unreadable(error.reason))
        }
        let base = URL(fileURLWithPath: path).standardizedFileURL.absoluteString
        do {
            self.init(schema: try Schema(JSONParser.parse(bytes), baseURI: base, options: options), format: format)
        } catch let error as JSONParseError {
            throw SchemaFileError(path: path, problem: .notJSON(error))
        } catch let error as SchemaError {
            throw SchemaFileError(path: path, problem: .notASchema(error))
        } catch {
            throw SchemaFileError(path: path, problem: .unreadable("\(error)"))
        }
    }

    /// Validates every file `paths` yields and passes the reports to `write`, a
    /// chunk of newline-terminated lines at a time, in the order of `paths`.
    public func run<Paths: Sequence<String>>(
        _ paths: Paths, write: (String) -> Void = StandardOutput.write
    ) -> BatchSummary {
        var summary = BatchSummary()
        var remaining = paths.makeIterator()
        var chunk: [String] = []
        chunk.reserveCapacity(chunkSize)
        while true {
            chunk.removeAll(keepingCapacity: true)
            while chunk.count < chunkSize, let path = remaining.next() { chunk.append(path) }
            if chunk.isEmpty { break }
            let reports = chunk.concurrentMap { [schema, format] path in
                let report = InstanceReport(path: path, schema: schema)
                return (line: report.rendered(format), verdict: report.verdict)
            }
            var text = ""
            for report in reports {
                text += report.line
                text += "\n"
                summary.add(report.verdict)
            }
            write(text)
        }
        return summary
    }
}

/// How many instances a batch found valid, invalid, or could not read or parse.
public struct BatchSummary: Sendable, Hashable {
    public var valid = 0
    public var invalid = 0
    /// Instances that could not be read or are not JSON.
    public var badInput = 0

    public init() {}

    public var total: Int { valid + invalid + badInput }

    /// 0 when every instance is valid, 2 when any could not be read or parsed, otherwise 1.
    public var exitStatus: Int32 {
        if badInput > 0 { return 2 }
        return invalid > 0 ? 1 : 0
    }

    public mutating func add(_ verdict: InstanceReport.Verdict) {
        switch verdict {
        case .valid: valid += 1
        case .invalid: invalid += 1
        case .badInput: badInput += 1
        }
    }
}

/// A schema file `trainer-eval validate` cannot use.
public struct SchemaFileError: Error, CustomStringConvertible {
    public enum Problem: Sendable {
        case unreadable(String)
        case notJSON(JSONParseError)
        case notASchema(SchemaError)
    }

    /// The schema's path as given.
    public let path: String
    public let problem: Problem

    public var description: String {
        switch problem {
        case .unreadable(let reason): return "cannot read schema \(path): \(reason); check the path given to --schema"
        case .notJSON(let error): return "schema \(path) is not valid JSON: \(error)"
        case .notASchema(let error): return "schema \(path) is not a valid JSON Schema: \(error)"
        }
    }
}

/// Standard output, written with plain system calls.
public enum StandardOutput {
    /// Writes all of `text` (retrying short writes); output to a closed pipe is dropped.
    public static func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(1, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}

/// `write(2)`, under another name: inside `StandardOutput` the plain name is the method.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #else
    Darwin.write(descriptor, bytes, count)
    #endif
}
