import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// When files and folders last changed, read with `stat` (a page may read thousands).
enum FileStamps {
    /// The modification time of `path` in seconds, and whether it is a folder; nil when it does not exist.
    static func stamp(_ path: String) -> (seconds: Double, isFolder: Bool)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        return (Double(time.tv_sec) + Double(time.tv_nsec) / 1e9, (info.st_mode & S_IFMT) == S_IFDIR)
    }

    /// Every file and folder under `folder` with its modification time, by path: a file
    /// added, removed, renamed or changed changes it.
    static func tree(_ folder: URL) -> [String: Double] {
        var stamps: [String: Double] = [:]
        stamps[folder.path] = stamp(folder.path)?.seconds
        guard let files = FileManager.default.enumerator(atPath: folder.path) else { return stamps }
        for case let relative as String in files {
            let path = folder.path + "/" + relative
            stamps[path] = stamp(path)?.seconds
        }
        return stamps
    }

    /// The folders directly in `folder`, each with its modification time: what changes
    /// when a file in one of them is created, renamed or removed.
    static func subfolders(_ folder: URL) -> [String: Double] {
        var stamps: [String: Double] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let path = folder.path + "/" + name
            if let found = stamp(path), found.isFolder { stamps[path] = found.seconds }
        }
        return stamps
    }
}

/// A value read from a file, read again when the file's modification time moves.
final class Reloaded<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private let file: URL
    private let read: @Sendable () throws -> Value
    private var kept: (stamp: Double?, value: Value)?

    init(file: URL, read: @escaping @Sendable () throws -> Value) {
        self.file = file
        self.read = read
    }

    var value: Value {
        get throws {
            try lock.withLock {
                let stamp = FileStamps.stamp(file.path)?.seconds
                if let kept, kept.stamp == stamp { return kept.value }
                let value = try read()
                kept = (stamp, value)
                return value
            }
        }
    }
}
