import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Small files read and written with plain system calls (`open`, `fstat`, `read`,
/// `write`): a large replay reads tens of thousands of them (and asks after more that
/// are not there), and Foundation's readers cost more than the reading itself.
public enum FileBytes {
    /// The file's bytes; nil when it is missing, cannot be read as a regular file or
    /// holds more than `maximumSize` bytes.
    public static func read(_ path: String, maximumSize: Int = .max) -> Data? {
        withRegularFile(path) { descriptor, stamp in
            let size = stamp.size
            guard size <= maximumSize else { return nil }
            var data = Data(count: size)
            let count = data.withUnsafeMutableBytes { readFully(descriptor, into: $0) }
            guard let count else { return nil }
            if count < size { data.count = count }
            return data
        }
    }

    /// The bytes before the file's first line break, and the whole file's stamp; nil
    /// when the file is missing or unreadable or has no line break.
    public static func firstLine(of path: String) -> (line: Data, stamp: FileStamp)? {
        withRegularFile(path) { descriptor, stamp -> (line: Data, stamp: FileStamp)? in
            // A settled fixture's header is a few kilobytes before tens of kilobytes of text:
            // small chunks copy little past the line.
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 1)
            defer { chunk.deallocate() }
            var line = Data()
            while true {
                let count = systemRead(descriptor, chunk.baseAddress, chunk.count)
                guard count > 0, let base = chunk.baseAddress else { return nil }
                if let found = memchr(base, Int32(UInt8(ascii: "\n")), count) {
                    line.append(base.assumingMemoryBound(to: UInt8.self), count: base.distance(to: found))
                    return (line, stamp)
                }
                line.append(base.assumingMemoryBound(to: UInt8.self), count: count)
            }
        }
    }

    /// Writes `parts`, one after another, over the file at `path` (made if missing) and
    /// returns its stamp. The file is rewritten in place, not replaced: a run rewrites
    /// thousands of these, and making a new file for each costs the file system more than
    /// the writing. For files a run can do without: one cut short is seen by its size.
    ///
    /// The file is cut to one byte before the writing, not emptied: ext4 flushes a file
    /// that was emptied and rewritten to disk when it is closed (its `auto_da_alloc` guard
    /// for programs that replace a file that way), a disk write per file of a large run.
    /// Cut short, a file whose writing stopped halfway is still shorter than it should be.
    public static func overwrite(_ path: String, with parts: [[UInt8]]) throws(FileBytesError) -> FileStamp {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileBytesError(path: path, errno: errno) }
        defer { close(descriptor) }
        let kept = min(1, parts.reduce(0) { $0 + $1.count })
        if let stamp = stamp(of: descriptor), stamp.size > kept {
            guard ftruncate(descriptor, off_t(kept)) == 0 else { throw FileBytesError(path: path, errno: errno) }
        }
        for part in parts {
            let written = part.withUnsafeBytes { buffer -> Bool in
                var offset = 0
                while offset < buffer.count {
                    let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { return false }
                    offset += count
                }
                return true
            }
            guard written else { throw FileBytesError(path: path, errno: errno) }
        }
        guard let stamp = stamp(of: descriptor) else { throw FileBytesError(path: path, errno: errno) }
        return stamp
    }

    /// `count` bytes from `offset` of the file at `path`, if the file still has `stamp`;
    /// nil when it is missing, changed or shorter.
    public static func read(_ path: String, offset: Int, count: Int, ifStamped expected: FileStamp) -> Data? {
        withRegularFile(path) { descriptor, stamp in
            guard stamp == expected, offset + count <= stamp.size else { return nil }
            var data = Data(count: count)
            let read = data.withUnsafeMutableBytes { buffer -> Int in
                var total = 0
                while total < count {
                    let got = pread(descriptor, buffer.baseAddress! + total, count - total, off_t(offset + total))
                    if got < 0, errno == EINTR { continue }
                    guard got > 0 else { break }
                    total += got
                }
                return total
            }
            return read == count ? data : nil
        }
    }

    /// Copies `count` bytes from `offset` of the file at `path`, if it still has `stamp`,
    /// to the open file `destination` at its position, inside the kernel (`sendfile`) or
    /// else through one buffer; false when the file is missing, changed or shorter, or
    /// the copy fails.
    public static func copy(
        _ path: String, offset: Int, count: Int, ifStamped expected: FileStamp, to destination: Int32
    ) -> Bool {
        withRegularFile(path) { descriptor, stamp -> Bool? in
            guard stamp == expected, offset + count <= stamp.size else { return false }
            var position = off_t(offset)
            var sent = 0
            while sent < count {
                let got = sendfile(destination, descriptor, &position, count - sent)
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { break }
                sent += got
            }
            if sent == count { return true }
            // Nothing sent: a destination `sendfile` cannot write to; copy through user space.
            guard sent == 0 else { return false }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: min(count, 1 << 20), alignment: 1)
            defer { buffer.deallocate() }
            var done = 0
            while done < count {
                let got = pread(descriptor, buffer.baseAddress, min(buffer.count, count - done), off_t(offset + done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { return false }
                var written = 0
                while written < got {
                    let put = write(destination, buffer.baseAddress! + written, got - written)
                    if put < 0, errno == EINTR { continue }
                    guard put > 0 else { return false }
                    written += put
                }
                done += got
            }
            return true
        } ?? false
    }

    /// The file's bytes and its stamp, from one `open`; nil as for `read(_:maximumSize:)`.
    public static func readStamped(_ path: String) -> (data: Data, stamp: FileStamp)? {
        withRegularFile(path) { descriptor, stamp in
            var data = Data(count: stamp.size)
            guard let count = data.withUnsafeMutableBytes({ readFully(descriptor, into: $0) }), count == stamp.size else { return nil }
            return (data, stamp)
        }
    }

    /// Whether anything is at `path` (following links), as `FileManager.fileExists(atPath:)` says, for less.
    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The stamp of the file at `path` (without opening it); nil when it is missing or not a regular file.
    public static func stamp(of path: String) -> FileStamp? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return stamp(status)
    }

    private static func stamp(of descriptor: Int32) -> FileStamp? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return stamp(status)
    }

    private static func stamp(_ status: stat) -> FileStamp? {
        guard status.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileStamp(
            size: Int(status.st_size), inode: UInt64(status.st_ino),
            modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
            changed: Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec))
    }

    private static func withRegularFile<T>(_ path: String, _ body: (Int32, FileStamp) -> T?) -> T? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let stamp = stamp(of: descriptor) else { return nil }
        return body(descriptor, stamp)
    }

    /// Reads until `buffer` is full or the file ends; the bytes read, nil on an error.
    private static func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        var total = 0
        while total < buffer.count {
            let count = systemRead(descriptor, buffer.baseAddress! + total, buffer.count - total)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            total += count
        }
        return total
    }
}

/// `read(2)`, named apart from `FileBytes.read`.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// What tells one version of a file from another without reading it: its size, its
/// inode, when it was last written and when its inode last changed, to the nanosecond.
/// The change time is the kernel's clock at any write, rename or change of attributes,
/// and no program can set it back.
public struct FileStamp: Sendable, Hashable {
    public var size: Int
    public var inode: UInt64
    public var modified: Int64
    public var changed: Int64
}

/// A file `FileBytes` could not write, and why.
public struct FileBytesError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String

    init(path: String, errno: Int32) {
        self.path = path
        reason = String(cString: strerror(errno))
    }

    public var description: String { "cannot write \(path): \(reason)" }
}
