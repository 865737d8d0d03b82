import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Small files read with one `open`, `fstat` and `read`: a large replay reads tens of
/// thousands of them (and asks after more that are not there), and Foundation's
/// readers cost more than the reading itself.
public enum FileBytes {
    /// The file's bytes; nil when it is missing, cannot be read as a regular file or
    /// holds more than `maximumSize` bytes.
    public static func read(_ path: String, maximumSize: Int = .max) -> Data? {
        withRegularFile(path) { descriptor, size in
            guard size <= maximumSize else { return nil }
            var data = Data(count: size)
            let count = data.withUnsafeMutableBytes { readFully(descriptor, into: $0) }
            guard let count else { return nil }
            if count < size { data.count = count }
            return data
        }
    }

    /// The bytes before the file's first line break, and the whole file's size; nil
    /// when the file is missing or unreadable or has no line break.
    public static func firstLine(of path: String) -> (line: Data, fileSize: Int)? {
        withRegularFile(path) { descriptor, size -> (line: Data, fileSize: Int)? in
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
            defer { chunk.deallocate() }
            var line = Data()
            while true {
                let count = systemRead(descriptor, chunk.baseAddress, chunk.count)
                guard count > 0, let base = chunk.baseAddress else { return nil }
                if let found = memchr(base, Int32(UInt8(ascii: "\n")), count) {
                    line.append(base.assumingMemoryBound(to: UInt8.self), count: base.distance(to: found))
                    return (line, size)
                }
                line.append(base.assumingMemoryBound(to: UInt8.self), count: count)
            }
        }
    }

    private static func withRegularFile<T>(_ path: String, _ body: (Int32, Int) -> T?) -> T? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return body(descriptor, Int(status.st_size))
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
