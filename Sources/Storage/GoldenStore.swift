import Crypto
import Intake
import Foundation
import JSONSchema

/// An output as approved (or pending approval): the value and which checks passed.
public struct GoldenEntry: Sendable, Hashable {
    /// The step's output, markdown included.
    public var output: JSONValue
    /// Check name → passed, as they were when the output was produced.
    public var checks: [String: Bool]
    /// What each failing check found, for a reviewer. Kept with pending outputs only
    /// (`<step>.messages.json.new`): golden records which checks pass, not why.
    public var failureMessages: [String: String]

    public init(output: JSONValue, checks: [String: Bool], failureMessages: [String: String] = [:]) {
        self.output = output
        self.checks = checks
        self.failureMessages = failureMessages
    }

    /// The check an approved entry records as failed when the model's reply could not be
    /// used at all (an approved known failure): the entry holds the reply, not an output.
    public static let usableOutputCheck = "output.usable"

    /// False for an entry approved as an unusable reply.
    public var isUsable: Bool { checks[Self.usableOutputCheck] != false }
}

/// Approved outputs under `golden/<fixture>/`: `<step>.json` (canonical JSON),
/// `<step>.md` (a program's markdown, kept as its own file so it diffs as text) and
/// `<step>.checks.json`. Pending outputs sit beside them with `.new` appended, like
/// insta's snapshots, and become golden only through `accept`.
public struct GoldenStore: GoldenStorage, Sendable {
    public let folder: URL
    /// Files' digests remembered across runs, for `contentDigest(of:)`; nil reads every file.
    public let digests: FileDigests?

    public init(folder: URL, digests: FileDigests? = nil) {
        self.folder = folder
        self.digests = digests
    }

    /// The key under which a program's markdown is stored in its own file.
    public static let markdownKey = "program_markdown"

    public func approved(_ key: StepKey) throws(GoldenError) -> GoldenEntry? {
        try read(key, suffix: "")
    }

    public func pending(_ key: StepKey) throws(GoldenError) -> GoldenEntry? {
        try read(key, suffix: ".new")
    }

    /// Writes `entry` as pending, each file atomically.
    public func writePending(_ entry: GoldenEntry, for key: StepKey) throws {
        try GoldenWriteLock.withLock(folder: folder) { try write(entry, key, suffix: ".new") }
    }

    /// Promotes a step's pending files to golden, all or nothing; false when nothing was pending.
    ///
    /// The renames are written to a journal (`.<step>.accepting` in the fixture's
    /// folder) before the first is made, and the journal is deleted after the last. An
    /// accept cut short between two renames (a crash, a full disk) is finished by the
    /// next read of the step or the next accept, from the journal: a step's output and
    /// its checks never come from different runs.
    @discardableResult
    public func accept(_ key: StepKey) throws -> Bool {
        try GoldenWriteLock.withLock(folder: folder) { try acceptUnlocked(key) }
    }

    private func acceptUnlocked(_ key: StepKey) throws -> Bool {
        try finishInterruptedAccept(key)
        let pending = paths(key, suffix: ".new"), approved = paths(key, suffix: "")
        guard FileBytes.exists(pending.json) else { return false }
        var moves: [AcceptMove] = [.rename(from: pending.json, to: approved.json)]
        if FileBytes.exists(pending.checks) { moves.append(.rename(from: pending.checks, to: approved.checks)) }
        moves.append(.remove(messagesPath(key)))
        moves.append(FileBytes.exists(pending.markdown) ? .rename(from: pending.markdown, to: approved.markdown) : .remove(approved.markdown))
        let journal = journalPath(key)
        do {
            try Data(moves.map(\.journalLine).joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: journal), options: .atomic)
        } catch {
            throw GoldenError.unwritable(path: display(URL(fileURLWithPath: journal)), reason: error.localizedDescription)
        }
        for (index, move) in moves.enumerated() {
            if index > 0 { try acceptFault?(index) }
            try perform(move)
        }
        unlink(journal)
        return true
    }

    /// One step of an accept, as its journal records it.
    enum AcceptMove: Equatable {
        case rename(from: String, to: String)
        case remove(String)

        var journalLine: String {
            switch self {
            case .rename(let from, let to): "rename\t\(from)\t\(to)"
            case .remove(let path): "remove\t\(path)"
            }
        }

        init?(journalLine line: Substring) {
            let fields = line.split(separator: "\t").map(String.init)
            switch (fields.first, fields.count) {
            case ("rename", 3): self = .rename(from: fields[1], to: fields[2])
            case ("remove", 2): self = .remove(fields[1])
            default: return nil
            }
        }
    }

    /// A hook between an accept's moves (given the index of the next), for tests to cut one short.
    var acceptFault: (@Sendable (Int) throws -> Void)?

    private func journalPath(_ key: StepKey) -> String {
        "\(folder.path)/\(key.fixture)/.\(key.step).accepting"
    }

    /// Makes one move; a rename whose file is already gone was made before.
    private func perform(_ move: AcceptMove) throws(GoldenError) {
        switch move {
        case .rename(let from, let to):
            guard FileBytes.exists(from) else { return }
            if rename(from, to) != 0 {
                throw GoldenError.unwritable(path: display(URL(fileURLWithPath: to)), reason: String(cString: strerror(errno)))
            }
        case .remove(let path):
            if unlink(path) != 0, errno != ENOENT {
                throw GoldenError.undeletable(path: display(URL(fileURLWithPath: path)), reason: String(cString: strerror(errno)))
            }
        }
    }

    /// Finishes an accept of `key` that was cut short, from its journal; nothing when there is none.
    func finishInterruptedAccept(_ key: StepKey) throws(GoldenError) {
        let journal = journalPath(key)
        guard let data = FileBytes.read(journal) else { return }
        let moves = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap(AcceptMove.init(journalLine:))
        for move in moves { try perform(move) }
        unlink(journal)
    }

    /// Moves the pending `.checks.json.new` over `.checks.json` and deletes the other
    /// pending files; the approved `.json` and `.md` are not touched.
    @discardableResult
    public func acceptChecks(_ key: StepKey) throws -> Bool {
        try GoldenWriteLock.withLock(folder: folder) { try acceptChecksUnlocked(key) }
    }

    private func acceptChecksUnlocked(_ key: StepKey) throws -> Bool {
        let pendingFiles = files(key, suffix: ".new")
        guard FileManager.default.fileExists(atPath: pendingFiles.json.path) else { return false }
        if FileManager.default.fileExists(atPath: pendingFiles.checks.path) {
            try replace(files(key, suffix: "").checks, with: pendingFiles.checks)
        }
        reject(key)
        return true
    }

    /// Deletes a step's pending files; false when nothing was pending.
    @discardableResult
    public func reject(_ key: StepKey) -> Bool {
        GoldenWriteLock.withLock(folder: folder) { rejectUnlocked(key) }
    }

    private func rejectUnlocked(_ key: StepKey) -> Bool {
        let pendingFiles = files(key, suffix: ".new")
        let existed = FileManager.default.fileExists(atPath: pendingFiles.json.path)
        for file in [pendingFiles.json, pendingFiles.markdown, pendingFiles.checks] { try? FileManager.default.removeItem(at: file) }
        try? FileManager.default.removeItem(atPath: messagesPath(key))
        return existed
    }

    /// The golden files of every fixture step outside `produced`, one orphan per step,
    /// sorted: what `run` reports and `accept --prune` deletes. A file counts when it
    /// sits in a fixture's folder and is named like a step's file (see
    /// `stepFileSuffixes`); anything else, such as golden/README.md, is not ours.
    public func orphans(excluding produced: Set<StepKey>) -> [GoldenOrphan] {
        let fixtures = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { !$0.hasPrefix(".") && ReservedGoldenFolder.all[$0] == nil }
        // A large suite has thousands of folders to list: each core takes its share.
        let found = fixtures.concurrentMap { fixture -> [StepKey: [String]] in
            let fixtureFolder = "\(folder.path)/\(fixture)"
            guard isFolder(fixtureFolder) else { return [:] }
            var filesByStep: [StepKey: [String]] = [:]
            for name in (try? FileManager.default.contentsOfDirectory(atPath: fixtureFolder)) ?? [] where !name.hasPrefix(".") {
                guard let step = Self.step(ofFileNamed: name) else { continue }
                let key = StepKey(fixture: fixture, step: step)
                guard !produced.contains(key), !isFolder("\(fixtureFolder)/\(name)") else { continue }
                filesByStep[key, default: []].append(name)
            }
            return filesByStep
        }
        return found.flatMap { $0.map { GoldenOrphan(key: $0.key, files: $0.value.sorted()) } }.sorted()
    }

    /// Deletes an orphan's files, then its fixture folder if that left it empty; true
    /// when the folder went too.
    @discardableResult
    public func remove(_ orphan: GoldenOrphan) throws(GoldenError) -> Bool {
        try GoldenWriteLock.withLock(folder: folder) { () throws(GoldenError) -> Bool in try removeUnlocked(orphan) }
    }

    private func removeUnlocked(_ orphan: GoldenOrphan) throws(GoldenError) -> Bool {
        let fixtureFolder = folder.appendingPathComponent(orphan.key.fixture, isDirectory: true)
        for name in orphan.files {
            let file = fixtureFolder.appendingPathComponent(name)
            if unlink(file.path) != 0, errno != ENOENT {
                throw GoldenError.undeletable(path: display(file), reason: String(cString: strerror(errno)))
            }
        }
        if rmdir(fixtureFolder.path) == 0 { return true }
        // A folder that still holds files stays; so does one already gone.
        if [ENOTEMPTY, EEXIST, ENOENT].contains(errno) { return false }
        throw GoldenError.undeletable(path: display(fixtureFolder), reason: String(cString: strerror(errno)))
    }

    /// How the names of a step's files end in its fixture's folder (`<step><suffix>`),
    /// longest first so `goal-options.checks.json` is not read as step `goal-options.checks`.
    static let stepFileSuffixes = [
        CassetteStore.fileSuffix, ".messages.json.new", ".checks.json.new", ".checks.json", ReviewLabel.fileSuffix, UnsafeAllowance.fileSuffix,
        ".json.new", ".md.new", ".json", ".md",
    ]

    /// The step a file in a fixture's folder belongs to, nil when it is no golden file.
    public static func step(ofFileNamed name: String) -> String? {
        guard let suffix = stepFileSuffixes.first(where: { name.hasSuffix($0) && name.count > $0.count }) else { return nil }
        return String(name.dropLast(suffix.count))
    }

    private func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The fixtures golden/ holds files for, sorted (retired fixtures included until pruned).
    public func fixtureFolders() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { ReservedGoldenFolder.all[$0] == nil && isFolder(folder.appendingPathComponent($0).path) }.sorted()
    }

    /// Every (fixture, step) with approved output, or with pending output, sorted.
    public func entries(pending: Bool) -> [StepKey] {
        entries(suffix: pending ? ".json.new" : ".json")
    }

    public func label(_ key: StepKey) throws(GoldenError) -> ReviewLabel? {
        guard let (data, path) = readSidecar(key, suffix: ReviewLabel.fileSuffix) else { return nil }
        return try ReviewLabel(fileText: data, path: path)
    }

    public func writeLabel(_ label: ReviewLabel, for key: StepKey) throws(GoldenError) {
        try writeSidecar(label.fileText, key, suffix: ReviewLabel.fileSuffix)
    }

    public func labelledEntries() -> [StepKey] {
        entries(suffix: ReviewLabel.fileSuffix)
    }

    public func allowance(_ key: StepKey) throws(GoldenError) -> UnsafeAllowance? {
        guard let (data, path) = readSidecar(key, suffix: UnsafeAllowance.fileSuffix) else { return nil }
        return try UnsafeAllowance(fileText: data, path: path)
    }

    public func writeAllowance(_ allowance: UnsafeAllowance, for key: StepKey) throws(GoldenError) {
        try writeSidecar(allowance.fileText, key, suffix: UnsafeAllowance.fileSuffix)
    }

    /// A file kept beside a step's golden files (`<step><suffix>`), with its path as
    /// messages show it; nil when there is none.
    private func readSidecar(_ key: StepKey, suffix: String) -> (Data, String)? {
        let path = "\(folder.path)/\(key.fixture)/\(key.step)\(suffix)"
        return FileBytes.read(path).map { ($0, display(URL(fileURLWithPath: path))) }
    }

    private func writeSidecar(_ text: String, _ key: StepKey, suffix: String) throws(GoldenError) {
        try GoldenWriteLock.withLock(folder: folder) { () throws(GoldenError) in try writeSidecarUnlocked(text, key, suffix: suffix) }
    }

    private func writeSidecarUnlocked(_ text: String, _ key: StepKey, suffix: String) throws(GoldenError) {
        let file = URL(fileURLWithPath: "\(folder.path)/\(key.fixture)/\(key.step)\(suffix)")
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file, options: .atomic)
        } catch {
            throw GoldenError.unwritable(path: display(file), reason: error.localizedDescription)
        }
    }

    /// Every (fixture, step) with a file named `<step><suffix>`, sorted.
    private func entries(suffix: String) -> [StepKey] {
        var keys: [StepKey] = []
        let fixtures = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for fixture in fixtures.sorted() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(fixture).path)) ?? []
            keys += Self.steps(amongFilesNamed: names, suffix: suffix).map { StepKey(fixture: fixture, step: $0) }
        }
        return keys.sorted()
    }

    /// The steps of one fixture folder, given its file names, that have a file ending in
    /// `suffix`: `.json` (approved), `.json.new` (pending), `.review.json` (labelled).
    /// What `entries(pending:)` and `labelledEntries()` list, a folder at a time.
    public static func steps(amongFilesNamed names: [String], suffix: String) -> [String] {
        // `x.checks.json` ends in `.json` too: only a file whose whole suffix is `suffix` counts.
        names.filter { step(ofFileNamed: $0).map { $0 + suffix } == $0 }.map { String($0.dropLast(suffix.count)) }.sorted()
    }

    /// The SHA-256 of the steps' approved and pending files, by name, each present one
    /// length-prefixed. Each fixture's folder is listed once, and only files it holds are read.
    public func contentDigest(of keys: [StepKey]) -> String? {
        digest(of: keys) { suffix, _ in suffix }
    }

    /// The digest `contentDigest(of:)` gives once the steps' pending outputs are accepted:
    /// a step's pending `.json.new` and `.checks.json.new` in place of its approved
    /// files, its `.md.new` or no markdown, and no pending files. Nil when a pending
    /// output lacks its checks file (`accept` would stop at it).
    public func contentDigestOnceAccepted(of keys: [StepKey]) -> String? {
        digest(of: keys) { suffix, listed in
            guard listed(".json.new") else { return suffix }
            switch suffix {
            case ".json": return ".json.new"
            case ".checks.json": return listed(".checks.json.new") ? ".checks.json.new" : nil
            case ".md": return listed(".md.new") ? ".md.new" : ""
            default: return ""
            }
        }
    }

    /// The digest of the steps' judged files, each taken from the file `source` names:
    /// given a judged file's suffix and whether a file of the step with a given suffix
    /// is present, the suffix of the file that holds its content ("" for none), or nil
    /// when it cannot be told.
    private func digest(of keys: [StepKey], source: (String, (String) -> Bool) -> String?) -> String? {
        var hash = SHA256()
        var listings: [String: Set<String>] = [:]
        func add(_ bytes: some DataProtocol) {
            withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { hash.update(bufferPointer: $0) }
            hash.update(data: bytes)
        }
        for key in keys {
            let fixtureFolder = "\(folder.path)/\(key.fixture)"
            if listings[key.fixture] == nil {
                listings[key.fixture] = Set((try? FileManager.default.contentsOfDirectory(atPath: fixtureFolder)) ?? [])
            }
            let listing = listings[key.fixture] ?? []
            for suffix in Self.judgedFileSuffixes {
                guard let sourceSuffix = source(suffix, { listing.contains(key.step + $0) }) else { return nil }
                add(Data((key.step + suffix).utf8))
                let name = key.step + sourceSuffix
                let path = "\(fixtureFolder)/\(name)"
                if !sourceSuffix.isEmpty, listing.contains(name),
                   let digest = digests.map({ $0.sha256(ofFile: path) }) ?? SHA256Digest.hex(ofFile: path) {
                    add(Data(digest.utf8))
                } else {
                    hash.update(data: [0xFF])
                }
            }
        }
        return SHA256Digest.hex(of: hash.finalize())
    }

    /// How the names of the files a step is judged against end, approved and pending.
    static let judgedFileSuffixes = [".json", ".md", ".checks.json", ".json.new", ".md.new", ".checks.json.new", ".messages.json.new"]

    // MARK: Files

    func files(_ key: StepKey, suffix: String) -> (json: URL, markdown: URL, checks: URL) {
        let paths = paths(key, suffix: suffix)
        return (URL(fileURLWithPath: paths.json), URL(fileURLWithPath: paths.markdown), URL(fileURLWithPath: paths.checks))
    }

    /// The same files as plain paths: a gate run reads tens of thousands of them, and
    /// building each path as a URL costs more than reading a small file.
    func paths(_ key: StepKey, suffix: String) -> (json: String, markdown: String, checks: String) {
        let base = "\(folder.path)/\(key.fixture)/\(key.step)"
        return ("\(base).json\(suffix)", "\(base).md\(suffix)", "\(base).checks.json\(suffix)")
    }

    /// The pending check messages' file, beside the pending output.
    private func messagesPath(_ key: StepKey) -> String {
        "\(folder.path)/\(key.fixture)/\(key.step).messages.json.new"
    }

    private func read(_ key: StepKey, suffix: String) throws(GoldenError) -> GoldenEntry? {
        try finishInterruptedAccept(key)
        let (jsonPath, markdownPath, checksPath) = paths(key, suffix: suffix)
        guard let data = FileBytes.read(jsonPath) else { return nil }
        func parse(_ data: Data, _ path: String) throws(GoldenError) -> JSONValue {
            do {
                return try JSONParser.parse(data)
            } catch {
                throw GoldenError.unreadable(path: display(URL(fileURLWithPath: path)), reason: "\(error)")
            }
        }
        var output = try parse(data, jsonPath)
        if let markdown = FileBytes.read(markdownPath), case .object(var object) = output {
            object[Self.markdownKey] = .string(String(decoding: markdown, as: UTF8.self))
            output = .object(object)
        }
        var checks: [String: Bool] = [:]
        if let data = FileBytes.read(checksPath) {
            guard case .object(let object) = try parse(data, checksPath) else {
                throw GoldenError.unreadable(path: display(URL(fileURLWithPath: checksPath)), reason: "expected an object of check name to true or false")
            }
            for member in object { checks[member.key] = member.value.boolValue ?? false }
        }
        var messages: [String: String] = [:]
        if suffix == ".new", let data = FileBytes.read(messagesPath(key)),
           case .object(let object) = try parse(data, messagesPath(key)) {
            for member in object { messages[member.key] = member.value.stringValue }
        }
        return GoldenEntry(output: output, checks: checks, failureMessages: messages)
    }

    private func write(_ entry: GoldenEntry, _ key: StepKey, suffix: String) throws {
        let paths = files(key, suffix: suffix)
        try FileManager.default.createDirectory(at: paths.json.deletingLastPathComponent(), withIntermediateDirectories: true)
        var output = entry.output
        if case .object(var object) = output, let markdown = object[Self.markdownKey]?.stringValue {
            object[Self.markdownKey] = nil
            output = .object(object)
            try Data(markdown.utf8).write(to: paths.markdown, options: .atomic)
        } else {
            try? FileManager.default.removeItem(at: paths.markdown)
        }
        try Data((output.serialized(.prettySorted) + "\n").utf8).write(to: paths.json, options: .atomic)
        let checks = JSONValue.object(JSONObject(entry.checks.map { JSONObject.Member(key: $0.key, value: .bool($0.value)) }))
        try Data((checks.serialized(.prettySorted) + "\n").utf8).write(to: paths.checks, options: .atomic)
        let messagesFile = URL(fileURLWithPath: messagesPath(key))
        if suffix == ".new", !entry.failureMessages.isEmpty {
            let messages = JSONValue.object(JSONObject(entry.failureMessages.map { JSONObject.Member(key: $0.key, value: .string($0.value)) }))
            try Data((messages.serialized(.prettySorted) + "\n").utf8).write(to: messagesFile, options: .atomic)
        } else if suffix == ".new" {
            try? FileManager.default.removeItem(at: messagesFile)
        }
    }

    /// Moves `source` over `destination` in one rename, so a reader never sees half a file.
    private func replace(_ destination: URL, with source: URL) throws {
        if rename(source.path, destination.path) != 0 {
            throw GoldenError.unwritable(path: display(destination), reason: String(cString: strerror(errno)))
        }
    }

    private func display(_ url: URL) -> String {
        let prefix = folder.deletingLastPathComponent().path + "/"
        return url.path.hasPrefix(prefix) ? String(url.path.dropFirst(prefix.count)) : url.path
    }
}

/// The golden files of a fixture step that no fixture produces any more (its fixture,
/// its option edit or the step itself went away). Only `accept --prune` deletes them.
public struct GoldenOrphan: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var key: StepKey
    /// File names in the fixture's folder (approved, pending and recorded), sorted.
    public var files: [String]

    public init(key: StepKey, files: [String]) {
        self.key = key
        self.files = files
    }

    /// The files as a user finds them from the project folder: `golden/<fixture>/<file>`.
    public var paths: [String] { files.map { "golden/\(key.fixture)/\($0)" } }

    public var description: String { key.description }

    public static func < (lhs: GoldenOrphan, rhs: GoldenOrphan) -> Bool {
        lhs.key != rhs.key ? lhs.key < rhs.key : lhs.files.lexicographicallyPrecedes(rhs.files)
    }
}

/// A golden file that cannot be used.
public enum GoldenError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)
    case undeletable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "The golden file \(path) cannot be read (\(reason)). Restore it from version control or re-approve the step."
        case .unwritable(let path, let reason):
            return "Could not write \(path): \(reason)."
        case .undeletable(let path, let reason):
            return "Could not delete \(path): \(reason). Check that you may write to its folder, then run `\(Invocation.command) accept --prune` again."
        }
    }
}
