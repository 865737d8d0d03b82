import Foundation
import Intake
import JSONSchema

/// The labelled defect corpus in `Tests/DefectCorpus`: one folder per case, holding a
/// good output (`good.json`, with `previous.json` for an edit) and, in `case.json`,
/// single-defect copies of it, each labelled with the check that must catch it.
/// `scripts/check-precision` reads the same files.
struct DefectCase {
    /// A copy of the good output with one defect, and the check it must make fail.
    struct Defect {
        var name: String
        var trips: String
        var why: String
        var changes: [Change]
    }

    /// One edit of an output: an RFC 6902 `add`, `replace` or `remove`, or a `substitute`
    /// of text inside a string (what a markdown defect needs: the rest of it stays as it was).
    struct Change {
        enum Operation {
            case add(JSONValue)
            case replace(JSONValue)
            case remove
            case substitute(find: String, with: String)
        }

        var path: JSONPointer
        var operation: Operation
    }

    /// The case's folder name.
    var name: String
    var fixture: String
    var step: PipelineStep
    /// For an edit: feedback instead of the scenario's, as `check --feedback` gives it.
    var feedback: String?
    /// What makes the good output one a coach would sign off on.
    var why: String
    var good: JSONValue
    /// For an edit: the good output before it.
    var previous: JSONValue?
    var defects: [Defect]

    static let folder = Repository.root.appendingPathComponent("Tests/DefectCorpus")

    /// The folders that hold a case, sorted.
    static func names() -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return entries.filter { FileManager.default.fileExists(atPath: folder.appendingPathComponent("\($0)/case.json").path) }.sorted()
    }

    init(named name: String) throws(DefectCorpusError) {
        let caseFolder = Self.folder.appendingPathComponent(name)
        func read(_ file: String) throws(DefectCorpusError) -> JSONValue {
            do {
                return try JSONParser.parse(Data(contentsOf: caseFolder.appendingPathComponent(file)))
            } catch {
                throw DefectCorpusError("\(name)/\(file): \(error)")
            }
        }
        let manifest = try read("case.json")
        func text(_ key: String, in object: JSONValue, at place: String) throws(DefectCorpusError) -> String {
            guard let value = object[key]?.stringValue, !value.isEmpty else {
                throw DefectCorpusError("\(name)/case.json: \(place) needs `\(key)`, a non-empty string")
            }
            return value
        }
        self.name = name
        fixture = try text("fixture", in: manifest, at: "the case")
        let stepName = try text("step", in: manifest, at: "the case")
        guard let step = PipelineStep(rawValue: stepName) else {
            throw DefectCorpusError("\(name)/case.json: `\(stepName)` is not a step whose output can be checked")
        }
        self.step = step
        feedback = manifest["feedback"]?.stringValue
        why = try text("why", in: manifest, at: "the case")
        good = try read("good.json")
        if FileManager.default.fileExists(atPath: caseFolder.appendingPathComponent("previous.json").path) {
            previous = try read("previous.json")
        } else {
            previous = nil
        }
        guard let list = manifest["defects"]?.arrayValue else { throw DefectCorpusError("\(name)/case.json: no `defects` list") }
        var defects: [Defect] = []
        for (index, item) in list.enumerated() {
            let place = "defect \(index + 1)"
            let defectName = try text("name", in: item, at: place)
            guard let changes = item["change"]?.arrayValue, !changes.isEmpty else {
                throw DefectCorpusError("\(name)/case.json: \(defectName) needs `change`, a list of changes")
            }
            var parsed: [Change] = []
            for change in changes {
                parsed.append(try Change(change, in: "\(name)/case.json: \(defectName)"))
            }
            defects.append(Defect(
                name: defectName, trips: try text("trips", in: item, at: defectName), why: try text("why", in: item, at: defectName), changes: parsed))
        }
        self.defects = defects
    }

    /// The good output with `defect`'s changes made, in order.
    func output(with defect: Defect) throws(DefectCorpusError) -> JSONValue {
        var output = good
        for change in defect.changes {
            do {
                output = try change.apply(to: output)
            } catch {
                throw DefectCorpusError("\(name), defect \(defect.name): \(error.message)")
            }
        }
        return output
    }
}

extension DefectCase.Change {
    init(_ value: JSONValue, in place: String) throws(DefectCorpusError) {
        guard let text = value["path"]?.stringValue, let path = JSONPointer(text), !path.isRoot else {
            throw DefectCorpusError("\(place): a change needs `path`, a JSON Pointer below the root")
        }
        self.path = path
        switch value["op"]?.stringValue {
        case "add", "replace":
            guard let new = value["value"] else { throw DefectCorpusError("\(place): `\(text)` needs a `value`") }
            operation = value["op"] == "add" ? .add(new) : .replace(new)
        case "remove":
            operation = .remove
        case "substitute":
            guard let find = value["find"]?.stringValue, !find.isEmpty, let replacement = value["with"]?.stringValue else {
                throw DefectCorpusError("\(place): substituting in `\(text)` needs `find` and `with`")
            }
            operation = .substitute(find: find, with: replacement)
        default:
            throw DefectCorpusError("\(place): `op` is add, replace, remove or substitute")
        }
    }

    /// `document` with this change made; a path that leads nowhere is an error, never ignored.
    func apply(to document: JSONValue) throws(DefectCorpusError) -> JSONValue {
        try apply(at: path.tokens[...], in: document)
    }

    private func apply(at tokens: ArraySlice<String>, in value: JSONValue) throws(DefectCorpusError) -> JSONValue {
        let token = tokens.first!, rest = tokens.dropFirst()
        switch value {
        case .object(var object):
            if rest.isEmpty {
                object[token] = try result(replacing: object[token])
            } else {
                guard let child = object[token] else { throw nothing }
                object[token] = try apply(at: rest, in: child)
            }
            return .object(object)
        case .array(var elements):
            if rest.isEmpty, case .add(let new) = operation {
                guard let index = token == "-" ? elements.count : Int(token), (0...elements.count).contains(index) else { throw nothing }
                elements.insert(new, at: index)
                return .array(elements)
            }
            guard let index = Int(token), elements.indices.contains(index) else { throw nothing }
            if rest.isEmpty {
                if let new = try result(replacing: elements[index]) { elements[index] = new } else { elements.remove(at: index) }
            } else {
                elements[index] = try apply(at: rest, in: elements[index])
            }
            return .array(elements)
        default:
            throw nothing
        }
    }

    /// What this change makes of the value at its path (nil: removed); `old` is nil when nothing is there.
    private func result(replacing old: JSONValue?) throws(DefectCorpusError) -> JSONValue? {
        switch operation {
        case .add(let new):
            return new
        case .replace(let new):
            guard old != nil else { throw nothing }
            return new
        case .remove:
            guard old != nil else { throw nothing }
            return nil
        case .substitute(let find, let replacement):
            guard let text = old?.stringValue else { throw DefectCorpusError("\(path) is not a string") }
            guard text.contains(find) else { throw DefectCorpusError("\(path) does not contain \"\(find.prefix(80))\"") }
            return .string(text.replacingOccurrences(of: find, with: replacement))
        }
    }

    private var nothing: DefectCorpusError { DefectCorpusError("nothing at \(path)") }
}

/// A case that cannot be used as written, named by its folder and defect.
struct DefectCorpusError: Error, CustomStringConvertible {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
