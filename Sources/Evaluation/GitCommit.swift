import Foundation

/// The commit the working tree is at, for the report and the history.
///
/// The commit is read from the files under `.git` (HEAD, loose refs, packed-refs),
/// never by running git: a subprocess through Foundation's `Process` hangs where
/// the loopback interface is down, and a replay must finish anywhere. Whether the
/// tree has uncommitted changes does need git; that call gets a deadline.
public enum GitCommit {
    /// `0123456789ab`, or `0123456789ab-dirty` when tracked files changed; nil outside a repository.
    public static func describe(at folder: URL, statusDeadline: Duration = .seconds(3)) -> String? {
        guard let repository = Repository(containing: folder), let commit = repository.headCommit() else { return nil }
        let head = String(commit.prefix(12))
        let status = BoundedSubprocess.output(
            of: ["git", "-C", folder.path, "status", "--porcelain", "--untracked-files=no"], deadline: statusDeadline)
        guard let status else { return head }
        return status.isEmpty ? head : head + "-dirty"
    }

    /// git's `user.name` for the repository at `folder`; nil when none is set or git is missing.
    public static func userName(at folder: URL, deadline: Duration = .seconds(10)) -> String? {
        let name = BoundedSubprocess.output(of: ["git", "-C", folder.path, "config", "user.name"], deadline: deadline)?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return name?.isEmpty == false ? name : nil
    }

    /// The folders git keeps a working tree's state in.
    struct Repository: Equatable {
        /// HEAD's folder: `.git`, or `.git/worktrees/NAME` for a linked worktree.
        let gitFolder: URL
        /// Where refs and packed-refs live: `.git` itself for a linked worktree too.
        let commonFolder: URL

        /// The repository whose working tree holds `folder`, searching upwards.
        init?(containing folder: URL) {
            var candidate = folder.standardizedFileURL
            while true {
                let dotGit = candidate.appendingPathComponent(".git")
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: dotGit.path, isDirectory: &isFolder) {
                    if isFolder.boolValue {
                        gitFolder = dotGit
                    } else {
                        // A linked worktree or submodule: `.git` is a file `gitdir: PATH`.
                        guard let line = Self.firstLine(of: dotGit), line.hasPrefix("gitdir:") else { return nil }
                        let path = line.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespaces)
                        gitFolder = URL(fileURLWithPath: path, relativeTo: candidate).standardizedFileURL
                    }
                    if let common = Self.firstLine(of: gitFolder.appendingPathComponent("commondir")) {
                        commonFolder = URL(fileURLWithPath: common, relativeTo: gitFolder.appendingPathComponent("/")).standardizedFileURL
                    } else {
                        commonFolder = gitFolder
                    }
                    return
                }
                let parent = candidate.deletingLastPathComponent()
                if parent.path == candidate.path { return nil }
                candidate = parent
            }
        }

        /// The full hash HEAD points at, following symbolic refs; nil on an unborn branch.
        func headCommit() -> String? {
            guard var value = Self.firstLine(of: gitFolder.appendingPathComponent("HEAD")) else { return nil }
            for _ in 0..<8 {
                guard value.hasPrefix("ref:") else { return Self.isHash(value) ? value : nil }
                let name = value.dropFirst("ref:".count).trimmingCharacters(in: .whitespaces)
                guard let resolved = resolve(name) else { return nil }
                value = resolved
            }
            return nil
        }

        /// A ref's value: its loose file (per worktree, then shared), else its packed-refs line.
        private func resolve(_ name: String) -> String? {
            for folder in [gitFolder, commonFolder] {
                if let value = Self.firstLine(of: folder.appendingPathComponent(name)) { return value }
            }
            guard let packed = try? String(contentsOf: commonFolder.appendingPathComponent("packed-refs"), encoding: .utf8) else {
                return nil
            }
            for line in packed.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("^") {
                let parts = line.split(separator: " ", maxSplits: 1)
                if parts.count == 2, parts[1] == name { return String(parts[0]) }
            }
            return nil
        }

        private static func firstLine(of file: URL) -> String? {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
            let line = text.prefix { $0 != "\n" }.trimmingCharacters(in: .whitespaces)
            return line.isEmpty ? nil : line
        }

        private static func isHash(_ text: String) -> Bool {
            text.count >= 40 && text.allSatisfy(\.isHexDigit)
        }
    }
}
