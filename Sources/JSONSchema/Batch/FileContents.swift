#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads with plain system calls: validating thousands of small
/// files is mostly opening and reading them, so no Foundation objects per file.
enum FileContents {
    /// Why a file could not be read, in words for a report line (`no such file`).
    struct Failure: Error {
        let reason: String
    }

    /// The bytes of the file at `path`.
    static func bytes(of path: String) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Failure(errno: errno) }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw Failure(errno: EISDIR) }

        // One byte more than the size, so the read that finds the end needs no growth.
        var bytes = [UInt8](repeating: 0, count: Int(max(status.st_size, 0)) + 1)
        var filled = 0
        while true {
            if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
            let count = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(errno: errno)
            }
            filled += count
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }
}

extension FileContents.Failure {
    init(errno code: Int32) {
        switch code {
        case ENOENT: reason = "no such file"
        case EACCES: reason = "permission denied"
        case EISDIR: reason = "it is a folder"
        case ENOTDIR: reason = "a part of the path is not a folder"
        default: reason = String(cString: strerror(code))
        }
    }
}
