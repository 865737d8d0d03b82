import Foundation
import JSONSchema

#if canImport(Glibc)
import Glibc
#endif

/// What was worked out from files' bytes (their SHA-256, say), remembered across runs by
/// each file's stamp, as git's index remembers which files are unchanged: a large
/// replay digests tens of thousands of recordings and golden files, and nearly all of
/// them are as the run before found them. A file whose stamp is the one it had when it
/// was read is not read again.
///
/// A value is remembered only for a file whose last change is at least
/// `settlingNanoseconds` older than the reading. Any later change to the file sets its
/// change time (which no program can set back) past the reading, so a stamp that
/// matches is a file unchanged even where the file system's clock is coarse.
///
/// Kept in one file (`.step-cache/file-digests.tsv`), a line a file, written back when
/// a run worked out a value it did not hold; a file that cannot be written only costs
/// the next run the reading.
public final class FileDigests: @unchecked Sendable {
    static let format = "file digests 1"
    /// How long ago a file must have changed for its value to be remembered: two seconds.
    public static let settlingNanoseconds: Int64 = 2_000_000_000

    struct Entry: Equatable {
        var stamp: FileStamp
        var value: String
    }

    let file: URL
    let settling: Int64
    /// What the file held; read without a lock, since nothing changes it.
    private let remembered: [String: Entry]
    private let lock = NSLock()
    /// Values worked out this run.
    private var added: [String: Entry] = [:]

    /// Reads `file` when it holds values in this format; otherwise starts empty.
    /// `settling` is `settlingNanoseconds` but where a test makes and reads files at once.
    public init(file: URL, settling: Int64 = settlingNanoseconds) {
        self.file = file
        self.settling = settling
        remembered = FileBytes.read(file.path).map(Self.entries(in:)) ?? [:]
    }

    /// `derive` of the bytes of the file at `path`, read only when the file changed since
    /// it was last worked out (for the same `kind` of value); nil when the file is missing
    /// or `derive` gives nil.
    public func value(ofFile path: String, kind: String, derive: (Data) -> String?) -> String? {
        let key = kind + "\t" + path
        if let stamp = FileBytes.stamp(of: path) {
            if let entry = remembered[key], entry.stamp == stamp { return entry.value }
            if let entry = lock.withLock({ added[key] }), entry.stamp == stamp { return entry.value }
        }
        guard let (data, stamp) = FileBytes.readStamped(path), let value = derive(data) else { return nil }
        if Self.isRememberable(key, value: value, stamp: stamp, before: Self.now() - settling) {
            lock.withLock { added[key] = Entry(stamp: stamp, value: value) }
        }
        return value
    }

    /// The SHA-256 of the file's bytes, as `SHA256Digest.hex(ofFile:)` gives it.
    public func sha256(ofFile path: String) -> String? {
        value(ofFile: path, kind: "sha256") { SHA256Digest.hex(of: $0) }
    }

    /// Writes the file when this run worked out a value it did not hold: it then holds
    /// those, and what it held for files that are still there (another run's fixtures
    /// among them).
    public func save() {
        let new = lock.withLock { added }
        guard !new.isEmpty else { return }
        // The other files' entries stay while the files are there: a large suite's tens of
        // thousands, each looked up side by side.
        let others = remembered.filter { new[$0.key] == nil }.map { $0 }
        let present = others.map(\.key).concurrentMap { key in
            FileBytes.stamp(of: key.split(separator: "\t", maxSplits: 1).last.map(String.init) ?? "") != nil
        }
        var entries = Array(new)
        entries.append(contentsOf: others.indices.lazy.filter { present[$0] }.map { others[$0] })
        entries.sort { $0.key < $1.key }
        var text = Array((Self.format + "\n").utf8)
        text.reserveCapacity(entries.count * 200)
        for (key, entry) in entries {
            let stamp = entry.stamp
            text.append(contentsOf: key.utf8)
            for field in ["\(stamp.size)", "\(stamp.inode)", "\(stamp.modified)", "\(stamp.changed)", entry.value] {
                text.append(UInt8(ascii: "\t"))
                text.append(contentsOf: field.utf8)
            }
            text.append(UInt8(ascii: "\n"))
        }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(text).write(to: file, options: .atomic)
    }

    /// A tab or line break in a path or value would break its line; a file changed
    /// after `before` could change again within the clock's granularity.
    static func isRememberable(_ key: String, value: String, stamp: FileStamp, before: Int64) -> Bool {
        stamp.changed <= before
            && !key.utf8.contains(UInt8(ascii: "\n")) && !value.utf8.contains { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\t") }
    }

    /// The real-time clock, in nanoseconds, as file times count.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The entries of a file `save()` wrote: `kind`, path, size, inode, modified,
    /// changed and value, tab separated. Lines that do not read so are skipped.
    static func entries(in data: Data) -> [String: Entry] {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> [String: Entry] in
            let bytes = bytes.bindMemory(to: UInt8.self)
            let header = Array(format.utf8) + [UInt8(ascii: "\n")]
            guard bytes.starts(with: header) else { return [:] }
            var entries: [String: Entry] = [:]
            var start = header.count
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                if let (key, entry) = Self.entry(UnsafeBufferPointer(rebasing: bytes[start..<end])) { entries[key] = entry }
                start = end + 1
            }
            return entries
        }
    }

    private static func entry(_ line: UnsafeBufferPointer<UInt8>) -> (String, Entry)? {
        var fields: [Range<Int>] = []
        var start = 0
        for index in line.indices where line[index] == UInt8(ascii: "\t") && fields.count < 6 {
            fields.append(start..<index)
            start = index + 1
        }
        fields.append(start..<line.count)
        guard fields.count == 7 else { return nil }
        func number(_ field: Range<Int>) -> Int64? {
            guard !field.isEmpty else { return nil }
            var value: Int64 = 0
            for index in field {
                let digit = line[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowedAgain) = times.addingReportingOverflow(Int64(digit))
                guard !overflowed, !overflowedAgain else { return nil }
                value = sum
            }
            return value
        }
        func text(_ field: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: line[field]), as: UTF8.self) }
        guard let size = number(fields[2]), let inode = number(fields[3]), let modified = number(fields[4]), let changed = number(fields[5])
        else { return nil }
        let key = text(fields[0].lowerBound..<fields[1].upperBound)
        return (key, Entry(stamp: FileStamp(size: Int(size), inode: UInt64(inode), modified: modified, changed: changed), value: text(fields[6])))
    }
}
