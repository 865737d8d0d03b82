import Foundation

/// How hints spell the command: the way the person invoked it, so that a hint
/// copied into the same shell runs. `swift run trainer-eval` (the README's way)
/// gives `swift run trainer-eval`, an installed `trainer-eval` on the PATH gives
/// `trainer-eval`, and `./.build/release/trainer-eval` gives itself.
public enum Invocation {
    public static let executableName = "trainer-eval"

    /// The spelling for this process, worked out once from its first argument and PATH.
    public static let command: String = spelling(
        executable: CommandLine.arguments.first ?? executableName,
        searchPath: ProcessInfo.processInfo.environment["PATH"] ?? "")

    /// `executable` is the process's first argument as the shell passed it.
    public static func spelling(executable: String, searchPath: String) -> String {
        let url = URL(fileURLWithPath: executable)
        // A test runner or any other host process: hints keep the documented name.
        guard url.lastPathComponent == executableName, executable.contains("/") else { return executableName }
        if onSearchPath(url, searchPath: searchPath) { return executableName }
        let components = url.standardizedFileURL.pathComponents
        if let build = components.lastIndex(of: ".build") {
            // `swift run` passes the built binary's path in the target-triple folder
            // (`.build/x86_64-unknown-linux-gnu/debug/…`), absolute or relative to the
            // package; a hint must not carry this machine's folders, and `swift run`
            // finds the binary again. A relative path to the `.build/debug` link is
            // what a person types, and is kept as typed.
            let inTripleFolder = components.indices.contains(build + 1) && components[build + 1].split(separator: "-").count >= 3
            if !executable.hasPrefix("/"), !inTripleFolder { return executable }
            return components[build...].contains("release") ? "swift run -c release \(executableName)" : "swift run \(executableName)"
        }
        return executable
    }

    private static func onSearchPath(_ executable: URL, searchPath: String) -> Bool {
        let resolved = executable.standardizedFileURL.resolvingSymlinksInPath().path
        return searchPath.split(separator: ":").contains { folder in
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(executableName)
            return candidate.standardizedFileURL.resolvingSymlinksInPath().path == resolved
                && FileManager.default.isExecutableFile(atPath: candidate.path)
        }
    }
}
