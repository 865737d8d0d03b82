import Foundation

/// Validates many instance files against one schema: read, parse and validate
/// side by side on every core, one line per file written in input order.
///
/// Files are taken a chunk at a time, so memory stays bounded however many
/// there are, and output starts before the last file is read. What each line
/// says is the caller's choice.
///
/// ```swift
/// let batch = try ValidationBatch(schemaFile: "schema.json")
/// let summary = batch.run(InstancePaths(["outputs/"]), line: { "\($0.path): \($0.verdict)" })
/// print(summary.invalid)
/// ```
public struct ValidationBatch: Sendable {
    public let schema: Schema
    /// How many files are validated side by side before their lines are written.
    public var chunkSize = 512

    public init(schema: Schema) {
        self.schema = schema
    }

    /// Reads and compiles the schema in the file at `path`; its relative
    /// references resolve against the file's location.
    public init(schemaFile path: String, options: ValidationOptions = .init()) throws(SchemaFileError) {
        let bytes: [UInt8]
        do {
            bytes = try FileContents.bytes(of: path)
        } catch {
            throw SchemaFileError(path: path, problem: .unreadable(error.reason))
        }
        let base = URL(fileURLWithPath: path).standardizedFileURL.absoluteString
        do {
            self.init(schema: try Schema(JSONParser.parse(bytes), baseURI: base, options: options))
        } catch let error as JSONParseError {
            throw SchemaFileError(path: path, problem: .notJSON(error))
        } catch let error as SchemaError {
            throw SchemaFileError(path: path, problem: .notASchema(error))
        } catch {
            throw SchemaFileError(path: path, problem: .unreadable("\(error)"))
        }
    }

    /// Validates every file `paths` yields. `line` turns each file's result into
    /// its line of output, without a newline (it is called side by side on every
    /// core); `write` receives the lines, each ending in a newline, a chunk at a
    /// time, in the order of `paths`.
    public func run<Paths: Sequence<String>>(
        _ paths: Paths, line: @Sendable (InstanceResult) -> String, write: (String) -> Void = StandardOutput.write
    ) -> BatchSummary {
        var summary = BatchSummary()
        var remaining = paths.makeIterator()
        var chunk: [String] = []
        chunk.reserveCapacity(chunkSize)
        while true {
            chunk.removeAll(keepingCapacity: true)
            while chunk.count < chunkSize, let path = remaining.next() { chunk.append(path) }
            if chunk.isEmpty { break }
            let reports = chunk.concurrentMap { [schema] path in
                let result = InstanceResult(path: path, schema: schema)
                return (line: line(result), verdict: result.verdict)
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

    /// Counts one more instance with `verdict`.
    public mutating func add(_ verdict: InstanceResult.Verdict) {
        switch verdict {
        case .valid: valid += 1
        case .invalid: invalid += 1
        case .badInput: badInput += 1
        }
    }
}

/// A schema file that cannot be read, is not JSON, or is not a valid schema.
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
        case .unreadable(let reason): return "cannot read schema \(path): \(reason)"
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
