import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Small files read with one `open`, `fstat` and `read`: a large replay reads tens of
/// thousands of them (and asks after more that are not there), and Foundation's
/// readers cost more than the reading itself.
public enum FileBytes {
    /// The file's bytes; nil when it is missing or cannot be read as a regular file.
    public static func read(_ path: String) -> Data? {
        withRegularFile(path) { descriptor, size in
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
        withRegularFile(path) { descriptor, size in
            var line = Data()
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { return nil }
                let found = chunk.withUnsafeBytes { memchr($0.baseAddress!, Int32(UInt8(ascii: "\n")), count) }
                if let found {
                    let end = chunk.withUnsafeBytes { $0.baseAddress!.distance(to: UnsafeRawPointer(found)) }
                    line.append(contentsOf: chunk[..<end])
                    return (line, size)
                }
                line.append(contentsOf: chunk[..<count])
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
