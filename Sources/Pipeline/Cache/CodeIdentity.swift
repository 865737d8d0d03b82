import Crypto
import Foundation
import Intake

/// Which build of the program is running: a conclusion reached by one build is
/// reused only by the same build, since any change to the code may change it.
public enum CodeIdentity {
    /// The program and the shared libraries it runs on (the Swift runtime, Foundation,
    /// ICU's regular expressions): a library updated in place changes it too.
    public static let current: String = ([program] + sharedLibraries).joined(separator: "\n")

    /// The linker's build id when it wrote one (a digest of the linked program),
    /// otherwise a digest of the executable file; a fresh value on every start when
    /// neither can be read, which turns reuse off rather than risk a wrong match.
    static let program: String = buildID().map { "build-id " + $0 } ?? executableDigest().map { "sha256 " + $0 } ?? "unknown " + UUID().uuidString

    /// Each shared library mapped into the process, by path, size and modification
    /// time (read from `/proc/self/maps`; none elsewhere).
    static var sharedLibraries: [String] {
        // A /proc file says it is empty: it is read until it ends, not by its size.
        guard let file = FileHandle(forReadingAtPath: "/proc/self/maps"), let data = try? file.readToEnd() else { return [] }
        try? file.close()
        let maps = String(decoding: data, as: UTF8.self)
        let paths = Set(maps.split(separator: "\n").compactMap { line -> String? in
            guard let slash = line.firstIndex(of: "/") else { return nil }
            let path = String(line[slash...])
            return path.contains(".so") ? path : nil
        })
        return paths.sorted().map { path in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            return "\(path) \(size) \(modified)"
        }
    }

    /// The running program's file: on Linux the kernel's link to it, whatever PATH found.
    private static var executablePath: String? {
        FileManager.default.fileExists(atPath: "/proc/self/exe") ? "/proc/self/exe" : Bundle.main.executablePath
    }

    /// The GNU build-id note of a 64-bit little-endian ELF program, read from its
    /// program headers: a few kilobytes of the file, not all of it.
    private static func buildID() -> String? {
        guard let path = executablePath, let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        func read(_ count: Int, at offset: UInt64) -> [UInt8]? {
            guard (try? file.seek(toOffset: offset)) != nil, let data = try? file.read(upToCount: count), data.count == count else { return nil }
            return Array(data)
        }
        guard let header = read(64, at: 0), header[0..<4].elementsEqual([0x7f, 0x45, 0x4c, 0x46]), header[4] == 2, header[5] == 1 else { return nil }
        func integer<T: FixedWidthInteger>(_ bytes: [UInt8], at offset: Int, as type: T.Type) -> T {
            bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
        }
        let tableOffset = integer(header, at: 0x20, as: UInt64.self)
        let entrySize = Int(integer(header, at: 0x36, as: UInt16.self))
        let entries = Int(integer(header, at: 0x38, as: UInt16.self))
        guard entrySize >= 56, let table = read(entrySize * entries, at: tableOffset) else { return nil }
        let noteType: UInt32 = 4
        for index in 0..<entries {
            let entry = index * entrySize
            guard integer(table, at: entry, as: UInt32.self) == noteType else { continue }
            let size = Int(integer(table, at: entry + 32, as: UInt64.self))
            guard size <= 1 << 16, let notes = read(size, at: integer(table, at: entry + 8, as: UInt64.self)) else { continue }
            if let id = notes.withUnsafeBytes(gnuBuildID) { return SHA256Digest.lowercaseHex(id) }
        }
        return nil
    }

    /// The description of the `NT_GNU_BUILD_ID` note among `notes`: each note is a name
    /// size, a description size and a type, then the name and the description, each
    /// padded to four bytes.
    static func gnuBuildID(in notes: UnsafeRawBufferPointer) -> [UInt8]? {
        let buildIDType: UInt32 = 3
        var offset = 0
        func aligned(_ size: Int) -> Int { (size + 3) & ~3 }
        while offset + 12 <= notes.count {
            let nameSize = Int(notes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let descriptionSize = Int(notes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
            let type = notes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let name = offset + 12
            let description = name + aligned(nameSize)
            guard description + descriptionSize <= notes.count else { return nil }
            if type == buildIDType, nameSize == 4, Array(notes[name..<name + 4]) == Array("GNU\0".utf8), descriptionSize > 0 {
                return Array(notes[description..<description + descriptionSize])
            }
            offset = description + aligned(descriptionSize)
        }
        return nil
    }

    /// A SHA-256 of the running executable's file, read a megabyte at a time.
    private static func executableDigest() -> String? {
        guard let path = executablePath, let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hash = SHA256()
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty { hash.update(data: chunk) }
        return SHA256Digest.hex(of: hash.finalize())
    }
}
