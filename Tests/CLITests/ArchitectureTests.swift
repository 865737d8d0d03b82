import Foundation
import Testing

/// ARCHITECTURE.md's module table is the layering: a module imports only the modules
/// listed above it. These tests read the table, Package.swift and every `import` under
/// Sources/, so the page stays true as the code moves.
struct ArchitectureTests {
    static let root = CommandRunner.repositoryRoot

    /// The modules of ARCHITECTURE.md's table, top to bottom.
    static func documentedModules() throws -> [String] {
        let page = try String(contentsOf: root.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        let section = try #require(page.components(separatedBy: "\n## Modules\n").dropFirst().first?.components(separatedBy: "\n## ").first)
        return section.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
        }
    }

    /// The project modules each Sources/ folder imports, with the file that does.
    static func imports(among modules: Set<String>) throws -> [(module: String, file: String, imported: String)] {
        let sources = root.appendingPathComponent("Sources")
        var found: [(String, String, String)] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let folder = sources.appendingPathComponent(module)
            guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ")
                    guard let index = words.firstIndex(of: "import"), words[..<index].allSatisfy({ $0.hasPrefix("@") }),
                          index + 1 < words.count, case let name = String(words[index + 1]), modules.contains(name) || name == "CCurl"
                    else { continue }
                    found.append((module, "Sources/\(module)/\(file)", name))
                }
            }
        }
        return found
    }

    /// Each target of Package.swift with the targets it depends on (products of other
    /// packages left out); the executable is the CLI module.
    static func declaredDependencies() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let targets = manifest.components(separatedBy: ".target(").dropFirst()
            + manifest.components(separatedBy: ".executableTarget(").dropFirst()
        var declared: [String: Set<String>] = [:]
        for target in targets {
            let text = target.components(separatedBy: "\n        .").first ?? target
            guard let name = text.firstMatch(of: /name: "([^"]+)"/)?.1 else { continue }
            var dependencies: Set<String> = []
            if let list = text.firstMatch(of: /dependencies: \[([^\]]*)\]/)?.1 {
                // Another package's product is named inside `.product(...)`: not a target of this one.
                let own = list.replacing(/\.product\([^)]*\)/, with: "")
                for match in own.matches(of: /"([A-Za-z]+)"/) { dependencies.insert(String(match.1)) }
            }
            declared[name == "trainer-eval" ? "CLI" : String(name)] = dependencies
        }
        return declared
    }

    @Test func everySourcesFolderIsAModuleOfTheTable() throws {
        let documented = try Self.documentedModules()
        #expect(documented.count >= 10, "\(documented)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path)
            .filter { !$0.hasPrefix(".") && $0 != "CCurl" }
        #expect(Set(folders) == Set(documented), "folders not in the table: \(Set(folders).subtracting(documented)); rows without a folder: \(Set(documented).subtracting(folders))")
    }

    @Test func noModuleImportsOneListedBelowIt() throws {
        let documented = try Self.documentedModules()
        let order = Dictionary(uniqueKeysWithValues: documented.enumerated().map { ($1, $0) })
        var wrong: [String] = []
        for (module, file, imported) in try Self.imports(among: Set(documented)) {
            if imported == "CCurl" {
                if module != "Providers" { wrong.append("\(file) imports CCurl: only Providers speaks to libcurl") }
                continue
            }
            guard let from = order[module], let to = order[imported] else { continue }
            if to >= from { wrong.append("\(file) imports \(imported), which ARCHITECTURE.md lists below \(module)") }
        }
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
    }

    @Test func packageSwiftDeclaresEveryImportAndOnlyUpwardDependencies() throws {
        let documented = try Self.documentedModules()
        let order = Dictionary(uniqueKeysWithValues: documented.enumerated().map { ($1, $0) })
        let declared = try Self.declaredDependencies()
        #expect(Set(documented).isSubset(of: declared.keys), "targets: \(declared.keys.sorted())")
        var wrong: [String] = []
        for (module, dependencies) in declared {
            guard let from = order[module] else { continue }
            for dependency in dependencies where (order[dependency] ?? -1) >= from {
                wrong.append("Package.swift: \(module) depends on \(dependency), which ARCHITECTURE.md lists below it")
            }
        }
        for (module, file, imported) in try Self.imports(among: Set(documented)) where !(declared[module]?.contains(imported) ?? true) {
            wrong.append("\(file) imports \(imported), which Package.swift does not declare for \(module)")
        }
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
    }
}
