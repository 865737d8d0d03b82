import Crypto
import Foundation
import Intake
import JSONSchema
import Providers

/// What replayed steps concluded, kept so that a later run reuses a step's result
/// instead of working it out again when nothing it follows from has changed: the same
/// build of the program, the same prompt files, the same fixture, the same earlier
/// steps and the same recorded answers. A changed prompt re-judges its own step and
/// the steps after it; everything else is read back.
///
/// Each fixture of a track (base or variant selection, and repeat) has one file under
/// `folder`, holding one entry per step with the key it was concluded under; a
/// changed key replaces its entry, so a track's folder holds one result per step,
/// however often its prompts change.
public struct StepCache: Sendable {
    public let folder: URL
    /// What every step's key starts from: the build, how it was invoked (hints name it), the shared prompt files.
    let runKey: [UInt8]
    /// Each step prompt's own files (its folder, and its variant's when one is selected).
    let stepKeys: [PipelineStep: [UInt8]]
    /// Steps read back and steps worked out so far, over every fixture of the run.
    public let tally = Tally()

    public final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var counts = (readBack: 0, workedOut: 0)

        public func add(readBack: Int = 0, workedOut: Int = 0) {
            lock.withLock { counts = (counts.readBack + readBack, counts.workedOut + workedOut) }
        }

        /// Replayed steps whose result was read back, and those worked out (and kept when the model answered).
        public var total: (readBack: Int, workedOut: Int) { lock.withLock { counts } }
    }

    /// Reads the prompt files of `prompts` (as `layout` holds them) into the keys.
    public init(folder: URL, layout: ProjectLayout, prompts: PromptLibrary) {
        self.folder = folder
        let stepFolders = PipelineStep.allCases.map { layout.prompts.appendingPathComponent($0.rawValue, isDirectory: true).path + "/" }
        var run = KeyBuilder()
        run.add(["step cache 2", CodeIdentity.current, Invocation.command])
        run.addFiles(under: layout.prompts) { path in !stepFolders.contains { path.hasPrefix($0) } }
        runKey = run.bytes
        var steps: [PipelineStep: [UInt8]] = [:]
        for step in PipelineStep.allCases {
            var key = KeyBuilder()
            let base = layout.prompts.appendingPathComponent(step.rawValue, isDirectory: true)
            let variants = base.appendingPathComponent(VariantTrack.folderName, isDirectory: true).path + "/"
            key.addFiles(under: base) { !$0.hasPrefix(variants) }
            if let variant = prompts.variants.steps[step] {
                key.add([variant])
                key.addFiles(under: PromptVariants.folder(of: step, variant: variant, layout: layout)) { _ in true }
            }
            steps[step] = key.bytes
        }
        stepKeys = steps
    }

    /// The cache of one fixture in one track, read from its file.
    /// `settings` are the run's own choices that change a result (repairs, checks).
    /// `readsEntries: false` only chains keys (see `Pipeline.fixtureKey(for:)`).
    func fixture(_ fixture: Fixture, track: String, settings: [String], readsEntries: Bool = true) -> FixtureCache {
        var key = KeyBuilder(runKey)
        key.add([fixture.name, track] + settings)
        // The files as loaded; a fixture made elsewhere has its files read now.
        let digests = fixture.sourceDigests.map { [$0.record, $0.scenario] }
            ?? [fixture.recordURL, fixture.scenarioURL].map { SHA256Digest.hex(ofFile: $0.path) ?? "(missing)" }
        for (url, digest) in zip([fixture.recordURL, fixture.scenarioURL], digests) { key.add([url.lastPathComponent, digest]) }
        let file = folder.appendingPathComponent(track, isDirectory: true).appendingPathComponent(fixture.name + ".json")
        return FixtureCache(file: file, chain: key.bytes, stepKeys: stepKeys, entries: readsEntries ? FixtureCache.read(file) : [:], tally: tally)
    }
}

/// One fixture's part of a `StepCache` while the fixture runs. A step's key chains
/// the keys of the steps before it, since their outputs are its input.
final class FixtureCache: @unchecked Sendable {
    struct Entry: Codable {
        var key: String
        var result: StepResult
        /// The request's user message, when its system message and settings were the
        /// step prompt's own: the result's prompt is then left out of the file and
        /// rebuilt from the step prompt, and every fixture's steps share one copy of them.
        var user: String?
    }

    let file: URL
    private var chain: [UInt8]
    private let stepKeys: [PipelineStep: [UInt8]]
    private var entries: [String: Entry]
    private var changed = false
    private let tally: StepCache.Tally

    init(file: URL, chain: [UInt8], stepKeys: [PipelineStep: [UInt8]], entries: [String: Entry], tally: StepCache.Tally) {
        self.file = file
        self.chain = chain
        self.stepKeys = stepKeys
        self.entries = entries
        self.tally = tally
    }

    /// The key of step `id` answered by `answers` (nil answers: a step with no model),
    /// which every later step's key follows from.
    func key(for id: StepID, answers: FixedAnswers?) -> String {
        var key = KeyBuilder(chain)
        key.add([id.description, answers?.digest ?? "no model"])
        if let step = id.step, let prompt = stepKeys[step] { key.add(bytes: prompt) }
        chain = key.bytes
        return key.hex
    }

    /// The chain so far: what the next step's key would follow from.
    var chainHex: String { SHA256Digest.lowercaseHex(chain) }

    /// A step that ended without a result worth keeping still moves the chain on.
    func pass(_ id: StepID, note: String) {
        var key = KeyBuilder(chain)
        key.add([id.description, "not kept", note])
        chain = key.bytes
    }

    /// The result kept under `key` for step `id`, if the key is the same. `prompt` is
    /// the step's own (its files are part of the key).
    func result(for id: StepID, key: String, prompt: StepPrompt) -> StepResult? {
        guard let entry = entries[id.description], entry.key == key else { return nil }
        tally.add(readBack: 1)
        var result = entry.result
        if let user = entry.user {
            result.prompt = RenderedPrompt(step: prompt.step, system: prompt.system, user: user, schema: .null, metadata: prompt.metadata)
        }
        return result
    }

    /// Keeps `result` under `key`: only a step the model answered, valid or not. An
    /// error or a skip depends on more than the key holds (a stop, a missing file).
    func keep(_ result: StepResult, key: String, prompt: StepPrompt) {
        tally.add(workedOut: 1)
        guard result.status == .valid || result.status == .invalid else { return }
        var entry = Entry(key: key, result: result)
        if let sent = result.prompt, sent.step == prompt.step, sent.system == prompt.system, sent.metadata == prompt.metadata, sent.schema == .null {
            entry.result.prompt = nil
            entry.user = sent.user
        }
        entries[result.id.description] = entry
        changed = true
    }

    /// Writes the fixture's file when an entry changed, atomically. A cache that cannot
    /// be written only costs the next run time, so a failure is not an error.
    func save() {
        guard changed else { return }
        let file = StoredFile(steps: entries)
        guard let value = try? JSONValueEncoder().encode(file) else { return }
        try? FileManager.default.createDirectory(at: self.file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(value.serializedBytes()).write(to: self.file, options: .atomic)
    }

    /// The entries of a fixture's file; none when it is missing or unreadable.
    static func read(_ file: URL) -> [String: Entry] {
        guard let data = FileBytes.read(file.path),
              let value = try? JSONParser.parse(data),
              let stored = try? JSONValueDecoder().decode(StoredFile.self, from: value)
        else { return [:] }
        return stored.steps
    }

    fileprivate struct StoredFile: Codable {
        var steps: [String: Entry]
    }
}

// A fixture's file is read straight from the parsed value, as `Decodable` reads it;
// anything else returns nil and the decoder reads it.

extension FixtureCache.Entry: JSONValueReadable {
    init?(json: JSONValue) {
        guard let key = json["key"]?.stringValue, let result = json["result"].flatMap(StepResult.init(json:)),
              case .some(let user) = JSONValue.readIfPresent(json["user"], \.stringValue)
        else { return nil }
        self.init(key: key, result: result, user: user)
    }
}

extension FixtureCache.StoredFile: JSONValueReadable {
    init?(json: JSONValue) {
        guard case .object(let steps)? = json["steps"] else { return nil }
        var entries: [String: FixtureCache.Entry] = [:]
        entries.reserveCapacity(steps.members.count)
        for member in steps.members {
            guard let entry = FixtureCache.Entry(json: member.value), entries.updateValue(entry, forKey: member.key) == nil else { return nil }
        }
        self.init(steps: entries)
    }
}

/// A SHA-256 over parts, each length-prefixed so that no two lists of parts run together.
private struct KeyBuilder {
    private var hash = SHA256()

    init() {}

    init(_ start: [UInt8]) {
        add(bytes: start)
    }

    mutating func add(_ parts: [String]) {
        for part in parts { add(bytes: Array(part.utf8)) }
    }

    mutating func add<Bytes: Collection<UInt8>>(bytes: Bytes) {
        withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { hash.update(bufferPointer: $0) }
        hash.update(data: Data(bytes))
    }

    /// Every regular file under `folder` that `including` takes, by relative path and contents, in path order.
    mutating func addFiles(under folder: URL, including: (String) -> Bool) {
        let root = folder.path + "/"
        guard let walker = FileManager.default.enumerator(atPath: root) else { return add(["(no folder)"]) }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            let path = root + relative
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue, including(path) { files.append(relative) }
        }
        for relative in files.sorted() {
            add([relative])
            add(bytes: FileManager.default.contents(atPath: root + relative) ?? Data())
        }
    }

    var bytes: [UInt8] { Array(hash.finalize()) }
    var hex: String { SHA256Digest.hex(of: hash.finalize()) }
}
