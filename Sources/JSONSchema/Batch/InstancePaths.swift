#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The instance files that a list of inputs names, one path at a time, in a
/// fixed order.
///
/// Each input is a file path, a folder (every `*.json` file below it, at any
/// depth, in sorted order), or `-` (newline-separated paths read from standard
/// input; blank lines are skipped, and a listed folder is expanded the same
/// way). Paths are produced lazily, so a long list never has to be held at once.
/// A path that does not exist is passed through: reading it reports the problem.
public struct InstancePaths: Sequence {
    private let inputs: [String]
    private let readLine: () -> String?

    /// - Parameters:
    ///   - inputs: paths, folders and `-`, in order.
    ///   - readLine: the next line of standard input without its newline, or nil at its end.
    public init(_ inputs: [String], readLine: @escaping () -> String? = { Swift.readLine() }) {
        self.inputs = inputs
        self.readLine = readLine
    }

    public func makeIterator() -> Iterator {
        Iterator(inputs: inputs[...], readLine: readLine)
    }

    /// Walks the inputs in order, expanding folders and standard input as it goes.
    public struct Iterator: IteratorProtocol {
        private var inputs: ArraySlice<String>
        private let readLine: () -> String?
        private var readingStandardInput = false
        private var walk = FolderWalk()

        init(inputs: ArraySlice<String>, readLine: @escaping () -> String?) {
            self.inputs = inputs
            self.readLine = readLine
        }

        public mutating func next() -> String? {
            while true {
                if let path = walk.next() { return path }
                let input: String
                if readingStandardInput {
                    guard let line = readLine() else {
                        readingStandardInput = false
                        continue
                    }
                    if line.allSatisfy(\.isWhitespace) { continue }
                    input = line
                } else {
                    guard let first = inputs.popFirst() else { return nil }
                    if first == "-" {
                        readingStandardInput = true
                        continue
                    }
                    input = first
                }
                // An unreadable folder stands for itself: reading it then reports why.
                guard FolderWalk.isFolder(input), walk.enter(input) else { return input }
            }
        }
    }
}

/// A depth-first walk of folders yielding the `*.json` files below them:
/// the entries of each folder sorted by name (byte order), a subfolder's files
/// at the subfolder's place. Symbolic links to folders are not followed, so a
/// link cannot make the walk loop.
struct FolderWalk {
    /// The folders being walked, innermost last: each with its entries still to visit.
    private var stack: [(folder: String, entries: ArraySlice<Entry>)] = []

    private struct Entry {
        let name: String
        let isFolder: Bool
    }

    /// Starts walking `folder` (the walk must be exhausted first); false when
    /// the folder cannot be opened.
    mutating func enter(_ folder: String) -> Bool {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        guard let entries = Self.entries(of: prefix) else { return false }
        stack = [(prefix, entries[...])]
        return true
    }

    mutating func next() -> String? {
        while let top = stack.indices.last {
            guard let entry = stack[top].entries.popFirst() else {
                stack.removeLast()
                continue
            }
            let path = stack[top].folder + entry.name
            guard entry.isFolder else { return path }
            if let entries = Self.entries(of: path + "/") {
                stack.append((path + "/", entries[...]))
            } else {
                return path
            }
        }
        return nil
    }

    /// True when `path` is a folder (following symbolic links).
    static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// The `*.json` files and the subfolders in `folder` (ending in `/`), sorted;
    /// nil when it cannot be opened.
    private static func entries(of folder: String) -> [Entry]? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while let record = readdir(directory) {
            let name = withUnsafeBytes(of: record.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name == "." || name == ".." { continue }
            let isFolder: Bool
            switch Int32(record.pointee.d_type) {
            case Int32(DT_DIR): isFolder = true
            case Int32(DT_REG): isFolder = false
            default: isFolder = isRealFolder(folder + name)
            }
            if isFolder || name.hasSuffix(".json") { entries.append(Entry(name: name, isFolder: isFolder)) }
        }
        return entries.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// True for a folder that is not a symbolic link (used when `readdir` cannot tell).
    private static func isRealFolder(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
